// Frames of a pool's event stream for the live view's model tests, built on the golden frames
// that the real encoders wrote (golden/*.json, by GoldenFramesTest: EventJson, SnapshotJson,
// DeadLetterJson, PoolHistory). A builder only sets values; every field, and its shape, is the
// server's, so a fixture cannot drift from what the page is sent (golden.test.js holds that).
import { readFileSync } from 'node:fs';

const read = (name) => JSON.parse(readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8'));
const copy = (value) => structuredClone(value);

export const golden = {
  snapshots: read('snapshots.json'),
  events: read('events.json'),
  jobs: read('jobs.json'),
  deadLetters: read('dead-letters.json'),
  history: read('history.json'),
};

export const T0 = golden.snapshots.snapshot.at; // 2025-01-02T03:04:05Z, a whole second

const plainBody = golden.snapshots.snapshot.snapshot;

export function slot(id, fields = {}) {
  return { ...copy(plainBody.slots[0]), id, ...fields };
}

export function counters(fields = {}) {
  return { ...copy(plainBody.counters), ...fields };
}

export function snapshotBody(fields = {}) {
  return { ...copy(plainBody), slots: [slot('w-0'), slot('w-1')], counters: counters(), ...fields };
}

const event = (name, at, fields) => ({ ...copy(golden.events[name]), at, ...fields });

export const snapshot = (body = snapshotBody(), at = T0) => ({ ...copy(golden.snapshots.snapshot), at, snapshot: body });
export const stats = (body, at) => ({ ...copy(golden.snapshots.stats), at, snapshot: body });

export const phase = (worker, ph, incarnation, at, extra = {}) =>
  event('phase', at, { worker, phase: ph, incarnation, backoffUntil: null, retirement: null, ...extra });

export const retired = (worker, retirement, incarnation, at) =>
  event('retired', at, { worker, incarnation, retirement });

export const restart = (worker, exit, replaced, at, extra = {}) =>
  event('restart', at, { worker, exit, cause: null, replaced, delayMs: 0, ...extra });

export const budget = (worker, restartsInWindow, replacementsRequested, maximumRestarts, at, extra = {}) =>
  event('budget', at, { worker, restartsInWindow, replacementsRequested, maximumRestarts, ...extra });

export const deadLettered = (job, reason, worker, attempts, size, at) =>
  event('deadLettered', at, { job, reason, worker, attempts, size });
export const deadLetterRemoved = (job, why, size, at) =>
  event('deadLetterRemoved', at, { job, why, size });

export const job = (outcome, at) => ({ ...copy(golden.jobs.completed), at, outcome });

export const state = (s, at) => event('state', at, { state: s });

export const revive = (worker, incarnation, by, at, was = 'REPLACEMENT_UNAVAILABLE') =>
  event('revive', at, { worker, incarnation, was, by });
export const recovered = (term, previousTerm, jobs, interrupted, at) =>
  event('recovered', at, { term, previousTerm, jobs, interrupted });

export const history = (events, at = T0, extra = {}) =>
  ({ ...copy(golden.history.empty), at, events, ...extra });
