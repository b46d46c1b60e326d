// The live view's model: frames of a pool's stream folded by reduce().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearLog, emptyModel, note, reduce, slotOf } from '../../../webroot/js/model.js';
import { tileView } from '../../../webroot/js/slotview.js';
import { T0, budget, counters, job, phase, restart, retired, slot, snapshot, snapshotBody, state, stats }
  from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);
const texts = (model) => model.log.lines.map((l) => l.text);

test('a snapshot gives one slot per tile with its phase, and the pool\'s counters and state', () => {
  const body = snapshotBody({ slots: [slot('w-0', { phase: 'ASSIGNED', inFlight: 1, capacity: 2,
    assignments: [{ assignment: 7, job: 'j-7' }] }), slot('w-1')], counters: counters({ accepted: 3, completed: 2 }) });
  const m = fold([snapshot(body)]);
  assert.deepEqual(m.snapshot.slots.map((s) => [s.id, s.phase, s.host]), [['w-0', 'ASSIGNED', null], ['w-1', 'IDLE', null]]);
  assert.equal(m.snapshot.counters.completed, 2);
  assert.equal(m.snapshot.state, 'RUNNING');
  const tile = tileView(slotOf(m, 'w-0'), m, T0);
  assert.equal(tile.phaseText, 'ASSIGNED');
  assert.equal(tile.jobsText, 'j-7');
  assert.equal(tile.fill, 0.5);
  assert.deepEqual(tile.meta, [['in flight', '1/2'], ['incarnation', 1], ['restarts', 0]]);
  assert.deepEqual(m.log.lines, []);
});

test('a crash then its replacement: restart counted, phases followed, last exit noted, one cue', () => {
  const m = fold([
    snapshot(),
    restart('w-1', 'CRASH', ['w-1'], T0 + 100, { cause: 'boom' }),
    phase('w-1', 'INSTALLING', 2, T0 + 101),
    phase('w-1', 'IDLE', 2, T0 + 150),
  ]);
  const w1 = slotOf(m, 'w-1');
  assert.deepEqual([w1.phase, w1.incarnation, w1.restarts], ['IDLE', 2, 1]);
  assert.deepEqual(slotOf(m, 'w-0'), slot('w-0', { host: null }));
  assert.deepEqual(m.lastExits['w-1'], { exit: 'CRASH', cause: 'boom', at: T0 + 100 });
  assert.deepEqual(m.cues['w-1'], { count: 1, incarnation: 2 });
  assert.equal(m.cues['w-0'], undefined);
  assert.match(tileView(w1, m, T0 + 200).note, /^last exit: CRASH at \d\d:\d\d:\d\d$/);
  assert.deepEqual(texts(m), ['w-1 incarnation 2 is up', 'w-1 stopped: CRASH (boom); replacing w-1']);
});

test('a phase other than ASSIGNED empties the slot\'s assignments', () => {
  const body = snapshotBody({ slots: [slot('w-0', { phase: 'ASSIGNED', inFlight: 1,
    assignments: [{ assignment: 1, job: 'j-1' }] })] });
  const m = fold([snapshot(body), phase('w-0', 'INSTALLING', 2, T0 + 5)]);
  assert.deepEqual([slotOf(m, 'w-0').assignments, slotOf(m, 'w-0').inFlight], [[], 0]);
});

test('a retirement after a budget refusal says why in words, on the tile and in the log', () => {
  const m = fold([
    snapshot(),
    budget('w-0', 5, 1, 5, T0 + 10),
    retired('w-0', 'REPLACEMENT_UNAVAILABLE', 1, T0 + 10),
  ]);
  const tile = tileView(slotOf(m, 'w-0'), m, T0 + 20);
  assert.equal(tile.phaseText, 'RETIRED');
  assert.equal(tile.jobsText, 'out of service');
  const budgetWords = 'the pool\'s restart budget is spent (5 of 5 restarts in the last 10 s across all slots;'
    + ' w-0 itself restarted 1 time)';
  assert.deepEqual(tile.reason, { name: 'REPLACEMENT_UNAVAILABLE',
    words: `${budgetWords}; it stopped (CRASH) while running job job-17` });
  assert.match(tile.label, /reason: REPLACEMENT_UNAVAILABLE, the pool's restart budget is spent \(5 of 5/);
  assert.deepEqual(texts(m), [
    `w-0 retired (REPLACEMENT_UNAVAILABLE): ${budgetWords}; it stopped (CRASH: boom) while running job job-17`,
    `restart budget refused replacing w-0: ${budgetWords}; it stopped (CRASH: boom) while running job job-17; w-0 retires`,
  ]);
  assert.deepEqual(m.budgetRefusals, {});
});

test('a budget over the pool\'s whole life is said so, and one restart is singular', () => {
  const body = snapshotBody({ budget: { restartsInWindow: 1, maxRestarts: 1, windowMs: null } });
  const m = fold([snapshot(body), budget('w-1', 1, 1, 1, T0 + 1, { slotRestarts: 0, jobs: [] }),
    retired('w-1', 'REPLACEMENT_UNAVAILABLE', 1, T0 + 1)]);
  assert.equal(tileView(slotOf(m, 'w-1'), m, T0).reason.words,
    'the pool\'s restart budget is spent (1 of 1 restart over the pool\'s lifetime across all slots;'
      + ' w-1 itself restarted 0 times); it stopped (CRASH) with no job running');
});

test('J8: the tile keeps the slot\'s own restarts while the words give the pool\'s budget', () => {
  const body = snapshotBody({ slots: [slot('w-0', { restarts: 0 }), slot('w-1', { restarts: 0 })] });
  const m = fold([snapshot(body), budget('w-1', 6, 1, 6, T0 + 1, { slotRestarts: 0 }),
    retired('w-1', 'REPLACEMENT_UNAVAILABLE', 1, T0 + 1)]);
  const tile = tileView(slotOf(m, 'w-1'), m, T0);
  assert.deepEqual(tile.meta.find(([label]) => label === 'restarts'), ['restarts', 0]);
  assert.match(tile.reason.words, /^the pool's restart budget is spent \(6 of 6 restarts in the last 10 s across all slots; w-1 itself restarted 0 times\)/);
  assert.match(tile.reason.words, /while running job job-17$/);
});

test('other retirements have their own words; one the page did not see says what it may be', () => {
  let m = fold([snapshot(), retired('w-0', 'CREATION_REJECTED', 2, T0 + 1),
    retired('w-1', 'REPLACEMENT_UNAVAILABLE', 1, T0 + 2)]);
  assert.equal(tileView(slotOf(m, 'w-0'), m, T0).reason.words, 'its worker failed to start');
  assert.equal(tileView(slotOf(m, 'w-1'), m, T0).reason.words, 'its restart policy does not replace it');

  m = fold([snapshot(snapshotBody({ slots: [slot('w-0', { phase: 'RETIRED', retirement: 'REPLACEMENT_UNAVAILABLE' }),
    slot('w-1', { phase: 'RETIRED', retirement: 'SOMETHING_NEW' })] }))]);
  assert.equal(tileView(slotOf(m, 'w-0'), m, T0).reason.words,
    'not replaced by its supervisor (restart policy or budget)');
  assert.deepEqual(tileView(slotOf(m, 'w-1'), m, T0).reason, { name: 'SOMETHING_NEW', words: null });
});

test('BACKING_OFF carries the countdown to the end of its backoff', () => {
  const until = T0 + 2000;
  const m = fold([
    snapshot(),
    restart('w-0', 'TIMEOUT', ['w-0'], T0, { delayMs: 2000 }),
    phase('w-0', 'BACKING_OFF', 1, T0, { backoffUntil: until }),
  ]);
  const w0 = slotOf(m, 'w-0');
  assert.equal(w0.backoffUntil, until);
  let tile = tileView(w0, m, T0 + 500);
  assert.equal(tile.phaseText, 'BACKING OFF');
  assert.deepEqual(tile.countdown, { until, leftMs: 1500 });
  assert.equal(tile.note, 'restarting in 1.5 s');
  tile = tileView(w0, m, until + 300);
  assert.deepEqual(tile.countdown, { until, leftMs: 0 });
  assert.equal(tile.note, 'restarting in 0.0 s');
  assert.match(texts(m)[0], /^w-0 backs off until \d\d:\d\d:\d\d\.\d{3}$/);
  assert.match(texts(m)[1], /replacing w-0 in 2 s$/);
});

test('stats heal the picture after missed events, and a missed restart still gets its cue', () => {
  let m = fold([snapshot()]);
  // The events of w-0's two restarts and w-1's job were lost; the next stats tell the truth.
  m = reduce(m, stats(snapshotBody({
    slots: [slot('w-0', { incarnation: 3, restarts: 2 }),
      slot('w-1', { phase: 'ASSIGNED', inFlight: 1, assignments: [{ assignment: 4, job: 'j-4' }] })],
    counters: counters({ accepted: 1, restarts: 2 }),
  }), T0 + 500));
  assert.deepEqual([slotOf(m, 'w-0').incarnation, slotOf(m, 'w-0').restarts], [3, 2]);
  assert.equal(tileView(slotOf(m, 'w-1'), m, T0 + 500).jobsText, 'j-4');
  assert.deepEqual(m.cues, { 'w-0': { count: 1, incarnation: 3 } });
  // Of w-1's restart only INSTALLING arrives (no restart, no IDLE); the stats finish the story.
  m = reduce(m, phase('w-1', 'INSTALLING', 2, T0 + 600));
  m = reduce(m, stats(snapshotBody({ slots: [slot('w-0', { incarnation: 3, restarts: 2 }),
    slot('w-1', { incarnation: 2, restarts: 1 })] }), T0 + 1000));
  assert.equal(slotOf(m, 'w-1').phase, 'IDLE');
  assert.deepEqual(m.cues['w-1'], { count: 1, incarnation: 2 }, 'one cue for one restart');
});

test('a slot that stats show back in service forgets why it was retired', () => {
  let m = fold([snapshot(), budget('w-0', 5, 1, 5, T0), retired('w-0', 'REPLACEMENT_UNAVAILABLE', 1, T0)]);
  assert.ok(m.retirements['w-0']);
  m = reduce(m, stats(snapshotBody({ slots: [slot('w-0', { incarnation: 2 }), slot('w-1')] }), T0 + 500));
  assert.deepEqual(m.retirements, {});
});

test('stats count outcomes per second from the growth of the counters', () => {
  const m = fold([
    snapshot(snapshotBody({ counters: counters({ completed: 100, failed: 1 }) }), T0),
    stats(snapshotBody({ counters: counters({ completed: 110, failed: 1, rejected: 2 }) }), T0 + 500),
    stats(snapshotBody({ counters: counters({ completed: 130, failed: 2, rejected: 2 }) }), T0 + 1000),
  ]);
  const s = Math.floor(T0 / 1000);
  assert.deepEqual(m.rates.buckets[s], { completed: 10, failed: 0, interrupted: 0, rejected: 2 });
  assert.deepEqual(m.rates.buckets[s + 1], { completed: 20, failed: 1, interrupted: 0, rejected: 0 });
});

test('a new connection\'s snapshot starts counting afresh (a restarted server counts from zero)', () => {
  const m = fold([
    snapshot(snapshotBody({ counters: counters({ completed: 500 }) }), T0),
    snapshot(snapshotBody({ counters: counters({ completed: 3 }) }), T0 + 5000),
    stats(snapshotBody({ counters: counters({ completed: 8 }) }), T0 + 5500),
  ]);
  assert.deepEqual(Object.values(m.rates.buckets), [{ completed: 5, failed: 0, interrupted: 0, rejected: 0 }]);
});

test('the pool state follows state events and is logged', () => {
  const m = fold([snapshot(), state('DRAINING', T0 + 1)]);
  assert.equal(m.snapshot.state, 'DRAINING');
  assert.deepEqual(texts(m), ['pool jobs is DRAINING']);
});

test('job outcomes make log lines, and a burst of alike ones folds into one', () => {
  const m = fold([
    snapshot(),
    job({ type: 'failed', job: 'j-1', worker: 'w-0', error: { code: 500, message: 'bad input' } }, T0 + 1),
    job({ type: 'rejected', job: 'j-2', reason: 'BACKLOG_FULL' }, T0 + 2),
    job({ type: 'rejected', job: 'j-3', reason: 'BACKLOG_FULL' }, T0 + 3),
    job({ type: 'interrupted', job: 'j-4', attempts: 3, reason: { kind: 'ATTEMPTS_EXHAUSTED',
      last: { kind: 'WORKER_STOPPED', worker: 'w-1', exit: 'TIMEOUT' } } }, T0 + 4),
    job({ type: 'cancelled', job: 'j-5' }, T0 + 5),
  ]);
  assert.deepEqual(texts(m), [
    'job j-5 cancelled',
    'job j-4 interrupted: attempts exhausted, last: w-1 stopped (TIMEOUT) after 3 attempt(s)',
    'job j-3 rejected: BACKLOG_FULL (and 1 more like it)',
    'job j-1 failed on w-0: bad input',
  ]);
});

test('frames of an unknown type, of another pool, or malformed change nothing', () => {
  const m = fold([snapshot(), restart('w-0', 'CRASH', ['w-0'], T0 + 1)]);
  for (const frame of [{ type: 'weather', pool: 'jobs', at: T0 }, { type: 'host', host: { id: 'h9' } }, {},
    null, 'text', 42, { type: 'restart', pool: 'other', at: T0, worker: 'w-0', replaced: ['w-0'] },
    { type: 'snapshot', pool: 'jobs', at: T0 }, { type: 'stats', snapshot: { slots: 'no' } }]) {
    assert.equal(reduce(m, frame), m, JSON.stringify(frame));
  }
});

test('events for a slot the snapshot does not have yet are logged and change no tile', () => {
  const m = fold([snapshot(), phase('h1/w-0', 'IDLE', 2, T0 + 1)]);
  assert.equal(slotOf(m, 'h1/w-0'), undefined);
  assert.deepEqual(texts(m), ['h1/w-0 incarnation 2 is up']);
});

test('the page\'s own lines go on top and cleared lines stay cleared', () => {
  let m = fold([snapshot(), restart('w-0', 'CRASH', ['w-0'], T0 + 1)]);
  m = note(m, T0 + 2, 'connection', 'connection', 'connection lost; reconnecting');
  assert.equal(texts(m)[0], 'connection lost; reconnecting');
  assert.equal(m.log.lastAt, T0 + 1, 'a line of the page does not move the server\'s time');
  m = clearLog(m);
  assert.deepEqual(texts(m), []);
  assert.equal(m.log.lastAt, T0 + 1);
});
