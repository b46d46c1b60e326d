// Frames of a pool's event stream, shaped as the server sends them (docs/protocol.md,
// EventJson, SnapshotJson), for the live view's model tests.

export const T0 = Date.UTC(2025, 0, 2, 3, 4, 5); // a whole second

export function slot(id, fields = {}) {
  return { id, phase: 'IDLE', capacity: 1, inFlight: 0, assignments: [], incarnation: 1, restarts: 0,
    retirement: null, backoffUntil: null, ...fields };
}

export function counters(fields = {}) {
  return { accepted: 0, rejected: 0, completed: 0, failed: 0, interrupted: 0, cancelled: 0, retried: 0,
    restarts: 0, staleCompletions: 0, budgetRefusals: 0, ignoredFacts: 0, ...fields };
}

export function snapshotBody(fields = {}) {
  return { name: 'jobs', state: 'RUNNING', backlog: { length: 0, capacity: 1000 },
    slots: [slot('w-0'), slot('w-1')], counters: counters(),
    budget: { restartsInWindow: 0, maxRestarts: 5, windowMs: 10000 }, ...fields };
}

export const snapshot = (body = snapshotBody(), at = T0) => ({ type: 'snapshot', pool: 'jobs', at, snapshot: body });
export const stats = (body, at) => ({ type: 'stats', pool: 'jobs', at, snapshot: body });

export const phase = (worker, ph, incarnation, at, extra = {}) =>
  ({ type: 'phase', pool: 'jobs', at, worker, phase: ph, incarnation, backoffUntil: null, retirement: null, ...extra });

export const retired = (worker, retirement, incarnation, at) =>
  ({ type: 'retired', pool: 'jobs', at, worker, phase: 'RETIRED', incarnation, backoffUntil: null, retirement });

export const restart = (worker, exit, replaced, at, extra = {}) =>
  ({ type: 'restart', pool: 'jobs', at, worker, exit, cause: null, replaced, delayMs: 0, ...extra });

export const budget = (worker, restartsInWindow, replacementsRequested, maximumRestarts, at, extra = {}) =>
  ({ type: 'budget', pool: 'jobs', at, worker, restartsInWindow, replacementsRequested, maximumRestarts,
    reaction: 'RETIRE_WORKER', exit: 'CRASH', cause: 'boom', jobs: ['job-17'], slotRestarts: 1, ...extra });

export const deadLettered = (job, reason, worker, attempts, size, at) =>
  ({ type: 'deadLettered', pool: 'jobs', at, job, reason, worker, attempts, size });
export const deadLetterRemoved = (job, why, size, at) =>
  ({ type: 'deadLetterRemoved', pool: 'jobs', at, job, why, size });

export const job = (outcome, at) => ({ type: 'job', pool: 'jobs', at, outcome });

export const state = (s, at) => ({ type: 'state', pool: 'jobs', at, state: s });

export const revive = (worker, incarnation, by, at, was = 'REPLACEMENT_UNAVAILABLE') =>
  ({ type: 'revive', pool: 'jobs', at, worker, incarnation, was, by });
export const recovered = (term, previousTerm, jobs, interrupted, at) =>
  ({ type: 'recovered', pool: 'jobs', at, term, previousTerm, jobs, interrupted });
