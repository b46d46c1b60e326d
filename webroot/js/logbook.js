// The event log's lines: which events make a line, its words, and how a burst of alike lines
// folds into one. Pure functions over plain data, no DOM; newest line first.
import { clock, human, plural } from './format.js';
import { interruption, poisonWords, refusalLine, retiredByBudgetLine, retirementWords, runningWords }
  from './reasons.js';

export const LOG_LIMIT = 250;
/** Alike job lines closer than this fold into the newest one. */
export const FOLD_MS = 3000;

export function emptyLog() {
  return { lines: [], nextId: 1, lastAt: 0 };
}

/**
 * The log with `line` ({at, kindClass, kind, text, group?, local?}) on top. A line with the same
 * group as the top one, within FOLD_MS, replaces it and counts it, so a flood of rejections stays
 * one line and restarts and retirements stay in view. Past LOG_LIMIT lines, the oldest line of
 * the kind that has the most goes (J8: a burst of one kind never pushes out another). `lastAt`
 * is the time of the newest event of the server logged; the page's own lines (`local`) do not
 * move it.
 */
export function append(log, line) {
  const top = log.lines[0];
  const lastAt = line.local ? log.lastAt : Math.max(log.lastAt, line.at);
  if (line.group && top && top.group === line.group && line.at - top.at < FOLD_MS) {
    const count = top.count + 1;
    const folded = { ...top, at: line.at, count, base: line.text, text: `${line.text} (and ${count - 1} more like it)` };
    return { ...log, lines: [folded, ...log.lines.slice(1)], lastAt };
  }
  const entry = { id: log.nextId, at: line.at, kindClass: line.kindClass, kind: line.kind,
    text: line.text, base: line.text, group: line.group || null, count: 1 };
  const lines = [entry, ...log.lines];
  if (lines.length > LOG_LIMIT) lines.splice(oldestOfCommonest(lines), 1);
  return { lines, nextId: log.nextId + 1, lastAt };
}

/** The index of the oldest line of the kind with the most lines (newest first in `lines`). */
function oldestOfCommonest(lines) {
  const counts = new Map();
  let top = null;
  for (const l of lines) {
    const n = (counts.get(l.kindClass) || 0) + 1;
    counts.set(l.kindClass, n);
    if (top === null || n > counts.get(top)) top = l.kindClass;
  }
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].kindClass === top) return i;
  return lines.length - 1;
}

/** Whether the log already holds a line with this time and text (a replayed event). */
export function holds(log, line) {
  return log.lines.some((l) => l.at === line.at && l.base === line.text);
}

/**
 * The log line an event of the pool makes, or null for events that make none. `model` is the
 * page's model before the event (for the slot's host and the budget refusal behind a retirement).
 */
export function lineFor(event, model) {
  const at = event.at;
  switch (event.type) {
    case 'budget':
      return { at, kindClass: 'budget', kind: 'budget', text: refusalLine(refusalOf(event, model)) };
    case 'state':
      return { at, kindClass: 'state', kind: 'state', text: `pool ${event.pool} is ${event.state}` };
    case 'retired': {
      const refusal = model.budgetRefusals[event.worker];
      if (refusal && event.retirement === 'REPLACEMENT_UNAVAILABLE') {
        return { at, kindClass: 'retired', kind: 'retired', text: retiredByBudgetLine(refusal) };
      }
      const slot = { id: event.worker, retirement: event.retirement, host: hostOf(model, event.worker) };
      const words = retirementWords(slot, { retirement: event.retirement, budget: null },
        model.lastExits[event.worker]);
      return { at, kindClass: 'retired', kind: 'retired',
        text: `${event.worker} retired (${event.retirement})${words ? `: ${words}` : ''}` };
    }
    case 'phase':
      if (event.phase === 'BACKING_OFF') {
        return { at, kindClass: 'phase', kind: 'backoff',
          text: `${event.worker} backs off until ${clock(event.backoffUntil)}` };
      }
      if (event.phase === 'IDLE' && event.incarnation > 1) {
        return { at, kindClass: 'phase', kind: 'up', text: `${event.worker} incarnation ${event.incarnation} is up` };
      }
      if (event.phase === 'LOST') {
        const host = hostOf(model, event.worker);
        return { at, kindClass: 'lost', kind: 'lost',
          text: `${event.worker} lost: ${host ? `host ${host}` : 'its host'} is unreachable` };
      }
      return null;
    case 'restart': {
      const replaced = event.replaced || [];
      const cause = event.cause ? ` (${event.cause})` : '';
      const running = Array.isArray(event.jobs) && event.jobs.length ? ` ${runningWords(event.jobs, event.jobCount)}` : '';
      const delay = event.delayMs > 0 ? ` in ${human(event.delayMs)}` : '';
      const what = replaced.length ? `replacing ${replaced.join(', ')}${delay}` : 'not replaced';
      const free = event.charged === false ? '; not charged to the restart budget (a suspect was running)' : '';
      return { at, kindClass: 'restart', kind: 'restart',
        text: `${event.worker} stopped: ${event.exit}${cause}${running}; ${what}${free}` };
    }
    case 'revive':
      return { at, kindClass: 'revive', kind: 'revive',
        text: `${event.worker} revived as incarnation ${event.incarnation} ${event.by === 'operator'
          ? 'by an operator' : 'after reviveAfterMs'}` };
    case 'recovered': {
      const interrupted = event.interrupted > 0 ? `, ${plural(event.interrupted, 'running job')} interrupted (NODE_LOST)` : '';
      return { at, kindClass: 'failover', kind: 'recovered',
        text: `coordinator took over in term ${event.term} (from term ${event.previousTerm}):`
          + ` ${plural(event.jobs, 'accepted job')} recovered${interrupted}` };
    }
    case 'deadLettered': {
      const last = event.worker ? `, the last on ${event.worker}` : '';
      return { at, kindClass: 'dead', kind: 'dead letter',
        text: `job ${event.job} kept in the dead-letter set (${event.reason} after ${plural(event.attempts, 'attempt')}${last}); ${event.size} kept`,
        group: event.reason === 'FAILED' ? 'dead:FAILED' : null };
    }
    case 'deadLetterRemoved': {
      const how = { EVICTED: 'evicted from the dead-letter set (the oldest, to make room)',
        REPLAYED: 'replayed from the dead-letter set', DISCARDED: 'discarded from the dead-letter set' }[event.why]
        || `removed from the dead-letter set (${event.why})`;
      return { at, kindClass: 'dead', kind: 'dead letter', text: `job ${event.job} ${how}; ${event.size} kept`,
        group: event.why === 'EVICTED' ? 'dead:EVICTED' : null };
    }
    case 'job':
      return jobLine(event);
    case 'flow':
      return flowLine(event);
    default:
      return null;
  }
}

/** An operator's pause, resume or group change (F1, F5), as one line. */
function flowLine(event) {
  const what = event.group == null ? `pool ${event.pool}` : `group ${event.group}`;
  const s = event.state || {};
  const text = {
    paused: `${what} paused by an operator: nothing new starts, running jobs finish`,
    resumed: `${what} resumed by an operator`,
    groupReset: `${what}: its run-time limits were dropped`,
  }[event.change] || `${what} set to concurrency ${s.concurrency || 'unlimited'}, queue ${
    s.queueCapacity || 'unlimited'}, weight ${s.weight}${s.rateLimit
    ? `, ${s.rateLimit.permits} per ${s.rateLimit.perMs} ms` : ''}${s.paused ? ', paused' : ''}`;
  return { at: event.at, kindClass: 'state', kind: 'flow', text };
}

/**
 * A budget event as the words read it, with the window the pool has (the budget event does not
 * carry it; the snapshot does).
 */
export function refusalOf(event, model) {
  const budget = model.snapshot && model.snapshot.budget;
  return { worker: event.worker, restartsInWindow: event.restartsInWindow,
    replacementsRequested: event.replacementsRequested, maximumRestarts: event.maximumRestarts,
    reaction: event.reaction, exit: event.exit ?? null, cause: event.cause ?? null,
    jobs: Array.isArray(event.jobs) ? event.jobs : [], jobCount: event.jobCount ?? null,
    slotRestarts: event.slotRestarts, windowMs: budget ? budget.windowMs ?? null : null, at: event.at };
}

function jobLine(event) {
  const o = event.outcome || {};
  let text;
  switch (o.type) {
    case 'rejected':
      text = `job ${o.job} rejected: ${o.reason}`;
      break;
    case 'interrupted':
      if (o.reason && o.reason.kind === 'POISON') {
        // Each poisoned job is its own line: folding would hide the ids.
        return { at: event.at, kindClass: 'interrupted', kind: 'poison', text: poisonWords(o.job, o.reason) };
      }
      text = `job ${o.job} interrupted: ${interruption(o.reason)} after ${o.attempts} attempt(s)`;
      break;
    case 'failed':
      text = `job ${o.job} failed on ${o.worker}: ${o.error ? o.error.message : ''}`;
      break;
    case 'cancelled':
      text = `job ${o.job} cancelled`;
      break;
    default:
      text = `job ${o.job}: ${o.type}`;
  }
  const why = o.reason ? (o.reason.kind || o.reason) : '';
  return { at: event.at, kindClass: o.type || 'job', kind: o.type || 'job', text, group: `${o.type}:${why}` };
}

/** The line that says where the replayed events of a history frame end. */
export function historyLine(at, count) {
  return { at, kindClass: 'connection', kind: 'history',
    text: `the ${plural(count, 'line')} below happened before this connection (replayed by the server)` };
}

function hostOf(model, worker) {
  const slot = model.snapshot && model.snapshot.slots.find((s) => s.id === worker);
  return slot ? slot.host || null : null;
}
