// The live view's model: everything the page shows about one pool, as plain data, and the one
// function that folds a frame of the pool's event stream into it. Pure: no DOM, no clock, no
// network; the same frames in the same order give the same model.
import { append, emptyLog, holds, historyLine, lineFor, refusalOf } from './logbook.js';
import { failoverLine, failoverOf } from './ha.js';
import { baseline, emptyRates, foldSeries, record } from './rates.js';

/**
 * The model of a pool before its first frame. Fields: `snapshot` (the newest snapshot, with the
 * events since applied), `lastExits` (slot id -> {exit, cause, at}), `budgetRefusals` (slot id ->
 * a budget refusal not yet followed by its retirement), `retirements` (slot id -> {retirement,
 * at, budget}: retirements the page saw, live or replayed), `progress` (slot id -> {job,
 * attempt, progress}: the last progress report of a job the slot runs, T2), `cues` (slot id -> {count,
 * incarnation}: restart cues, each shown once by the tiles), `rates` (outcomes per second),
 * `failover` ({from, to, node, at}: the last failover of an HA pool seen between two snapshots,
 * or null) and `log` (the event log's lines).
 */
export function emptyModel(pool = null) {
  return {
    pool,
    snapshot: null,
    lastExits: {},
    budgetRefusals: {},
    retirements: {},
    progress: {},
    cues: {},
    rates: emptyRates(),
    failover: null,
    log: emptyLog(),
  };
}

/**
 * The model after one frame of the stream: `snapshot` (on connect), `history` (after it, when
 * the server keeps one), `stats` (periodic, heals what missed events left wrong), `phase`,
 * `retired`, `restart`, `budget`, `revive` (logged; the `phase` event after it moves the tile),
 * `state`, `job`, `flow` (an operator's pause, resume or group change: logged, and the pool's
 * pause or the listed group as it says), and `deadLettered` / `deadLetterRemoved` (logged; their `size` is the
 * dead-letter count until the next snapshot). Frames of another pool, and frames of a type this
 * page does not know, change nothing (the same model comes back).
 */
export function reduce(model, event) {
  if (!event || typeof event !== 'object') return model;
  if (model.pool && event.pool && event.pool !== model.pool) return model;
  switch (event.type) {
    case 'snapshot':
      return onSnapshot(model, event, true);
    case 'stats':
      return onSnapshot(model, event, false);
    case 'history':
      return onHistory(model, event);
    case 'phase':
    case 'retired':
      return logged(model, event, onPhase);
    case 'restart':
      return logged(model, event, onRestart);
    case 'budget':
      return logged(model, event, onBudget);
    case 'state':
      return logged(model, event, onState);
    case 'revive':
    case 'recovered':
      return logged(model, event, null);
    case 'job':
      return logged(model, event, null);
    case 'deadLettered':
    case 'deadLetterRemoved':
      return logged(model, event, onDeadLetters);
    case 'flow':
      return logged(model, event, onFlow);
    case 'progress':
      return onProgress(model, event);
    default:
      return model;
  }
}

/**
 * A job's progress report (T2): kept by slot for its tile, not logged (a long job reports often).
 */
function onProgress(model, e) {
  if (typeof e.worker !== 'string' || typeof e.job !== 'string') return model;
  const progress = { ...(model.progress || {}),
    [e.worker]: { job: e.job, attempt: e.attempt, progress: e.progress ?? null } };
  return { ...model, progress };
}

/** The model with a line of the page's own (connection, rebalance) on top of the log. */
export function note(model, at, kindClass, kind, text) {
  return { ...model, log: append(model.log, { at, kindClass, kind, text, local: true }) };
}

/** The model with an empty log (what was logged stays known, so a replay does not bring it back). */
export function clearLog(model) {
  return { ...model, log: { ...model.log, lines: [] } };
}

/** The slot with this id, or undefined. */
export function slotOf(model, id) {
  return model.snapshot ? model.snapshot.slots.find((s) => s.id === id) : undefined;
}

// ---- frames ------------------------------------------------------------------------------------

function onSnapshot(model, event, first) {
  const s = event.snapshot;
  if (!s || !Array.isArray(s.slots)) return model;
  const snapshot = {
    ...s,
    backlog: { length: 0, capacity: 0, waiting: 0, nextDue: null, ...(s.backlog || {}) },
    deadLetters: typeof s.deadLetters === 'number' ? s.deadLetters : 0,
    counters: s.counters || {},
    budget: s.budget || { restartsInWindow: 0, maxRestarts: 0, windowMs: null },
    hosts: Array.isArray(s.hosts) ? s.hosts : [],
    slots: s.slots.map((slot) => ({ ...slot, host: slot.host ?? null })),
    paused: s.paused === true,
    pausedSince: s.pausedSince ?? null,
    groups: Array.isArray(s.groups) ? s.groups : [],
    groupCount: typeof s.groupCount === 'number' ? s.groupCount : 0,
  };
  const previous = model.snapshot;
  let cues = model.cues;
  if (previous) {
    for (const slot of snapshot.slots) {
      const before = previous.slots.find((x) => x.id === slot.id);
      // A restart the page missed (no restart event seen) still gets its cue.
      if (before && slot.incarnation > before.incarnation) cues = cue(cues, slot.id, slot.incarnation);
    }
  }
  const retirements = keep(model.retirements, (id, r) =>
    snapshot.slots.some((slot) => slot.id === id && slot.phase === 'RETIRED' && slot.retirement === r.retirement));
  const { counters } = snapshot;
  const rates = first ? baseline(model.rates, counters, event.at) : record(model.rates, counters, event.at);
  // A new leader's term shows in the next snapshot, whichever node serves this page.
  let { failover, log } = model;
  const seen = failoverOf(previous, snapshot);
  if (seen) {
    failover = { ...seen, at: event.at };
    const line = failoverLine(seen, event.at);
    if (!holds(log, line)) log = append(log, line);
  }
  return { ...model, snapshot, cues, retirements, rates, failover, log };
}

/**
 * An operator's flow change (F1, F5): the pool's pause, or one listed group, as the change's
 * `state` says, until the next snapshot.
 */
function onFlow(model, e) {
  const s = model.snapshot;
  if (!s || !e.state) return model;
  if (e.group == null) {
    return { ...model, snapshot: { ...s, paused: e.state.paused === true, pausedSince: e.state.pausedSince ?? null } };
  }
  const listed = s.groups.some((g) => g.name === e.group);
  const groups = listed ? s.groups.map((g) => (g.name === e.group ? { ...g, ...e.state } : g)) : s.groups;
  return { ...model, snapshot: { ...s, groups } };
}

function onPhase(model, e) {
  const id = e.worker;
  let { cues, retirements, budgetRefusals } = model;
  if (e.phase === 'RETIRED') {
    retirements = { ...retirements, [id]: { retirement: e.retirement, at: e.at, budget: budgetRefusals[id] || null } };
    budgetRefusals = without(budgetRefusals, id);
  } else {
    retirements = without(retirements, id);
    budgetRefusals = without(budgetRefusals, id);
  }
  const slot = slotOf(model, id);
  if (!slot) return { ...model, retirements, budgetRefusals };
  const next = { ...slot, phase: e.phase, incarnation: e.incarnation, backoffUntil: e.backoffUntil ?? null,
    retirement: e.retirement ?? null };
  if (e.phase !== 'ASSIGNED') {
    next.assignments = [];
    next.inFlight = 0;
  }
  if (e.incarnation > slot.incarnation) cues = cue(cues, id, e.incarnation);
  return { ...model, snapshot: withSlot(model.snapshot, next), cues, retirements, budgetRefusals };
}

function onRestart(model, e) {
  const lastExits = { ...model.lastExits, [e.worker]: { exit: e.exit, cause: e.cause ?? null, at: e.at } };
  let { snapshot, cues } = model;
  for (const id of e.replaced || []) {
    const slot = snapshot && snapshot.slots.find((s) => s.id === id);
    if (!slot) continue;
    snapshot = withSlot(snapshot, { ...slot, restarts: slot.restarts + 1 });
    cues = cue(cues, id, slot.incarnation + 1);
  }
  return { ...model, snapshot, cues, lastExits };
}

function onBudget(model, e) {
  return { ...model, budgetRefusals: { ...model.budgetRefusals, [e.worker]: refusalOf(e, model) } };
}

function onDeadLetters(model, e) {
  if (!model.snapshot || typeof e.size !== 'number') return model;
  return { ...model, snapshot: { ...model.snapshot, deadLetters: e.size } };
}

function onState(model, e) {
  if (!model.snapshot) return model;
  return { ...model, snapshot: { ...model.snapshot, state: e.state } };
}

/**
 * A history frame, {events, series, lastExits}, sent after the snapshot: what happened before
 * this connection. Its events are older than the snapshot, so they only fill the log, the last
 * exits and the retirements' reasons (never the tiles' phases); events this page logged on an
 * earlier connection are not logged twice.
 */
function onHistory(model, frame) {
  let lastExits = { ...model.lastExits };
  let refusals = { ...model.budgetRefusals };
  let retirements = { ...model.retirements };
  let log = model.log;
  const since = log.lastAt;
  const events = (Array.isArray(frame.events) ? frame.events : [])
    .filter((e) => e && typeof e === 'object' && typeof e.at === 'number')
    .map((e, i) => [e, i])
    .sort((a, b) => a[0].at - b[0].at || a[1] - b[1])
    .map(([e]) => e);
  let added = 0;
  for (const e of events) {
    const before = { ...model, lastExits, budgetRefusals: refusals };
    const line = lineFor(e, before);
    if (e.type === 'restart') {
      lastExits = newer(lastExits, e.worker, { exit: e.exit, cause: e.cause ?? null, at: e.at });
    } else if (e.type === 'budget') {
      refusals = onBudget({ ...model, budgetRefusals: refusals }, e).budgetRefusals;
    } else if (e.type === 'retired') {
      retirements[e.worker] = { retirement: e.retirement, at: e.at, budget: refusals[e.worker] || null };
      refusals = without(refusals, e.worker);
    } else if (e.type === 'phase') {
      refusals = without(refusals, e.worker);
    }
    if (line && !(e.at < since) && !holds(log, line)) {
      log = append(log, line);
      added += 1;
    }
  }
  if (frame.lastExits && typeof frame.lastExits === 'object') {
    for (const [id, x] of Object.entries(frame.lastExits)) {
      if (x && typeof x.exit === 'string' && typeof x.at === 'number') {
        lastExits = newer(lastExits, id, { exit: x.exit, cause: x.cause ?? null, at: x.at });
      }
    }
  }
  if (added > 0) {
    const at = typeof frame.at === 'number' ? frame.at : events[events.length - 1].at;
    log = append(log, { ...historyLine(at, added), local: true });
  }
  if (model.snapshot) {
    retirements = keep(retirements, (id, r) => model.snapshot.slots.some((slot) =>
      slot.id === id && slot.phase === 'RETIRED' && slot.retirement === r.retirement));
  }
  return { ...model, lastExits, retirements, log, rates: foldSeries(model.rates, frame.series) };
}

// ---- helpers -------------------------------------------------------------------------------

/**
 * Applies an event that may make a log line. An event whose line the log already holds (same
 * time, same words) came in a history frame too, and changes nothing the second time.
 */
function logged(model, event, step) {
  const line = lineFor(event, model);
  if (line && holds(model.log, line)) return model;
  const next = step ? step(model, event) : model;
  return line ? { ...next, log: append(next.log, line) } : next;
}

function cue(cues, id, incarnation) {
  const c = cues[id] || { count: 0, incarnation: 0 };
  if (incarnation <= c.incarnation) return cues;
  return { ...cues, [id]: { count: c.count + 1, incarnation } };
}

function withSlot(snapshot, slot) {
  return { ...snapshot, slots: snapshot.slots.map((s) => (s.id === slot.id ? slot : s)) };
}

function newer(map, id, entry) {
  const have = map[id];
  return have && have.at >= entry.at ? map : { ...map, [id]: entry };
}

function without(map, id) {
  if (!(id in map)) return map;
  const copy = { ...map };
  delete copy[id];
  return copy;
}

function keep(map, test) {
  const entries = Object.entries(map);
  const kept = entries.filter(([id, v]) => test(id, v));
  return kept.length === entries.length ? map : Object.fromEntries(kept);
}
