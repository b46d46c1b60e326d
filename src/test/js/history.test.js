// The history frame: what happened before the page connected, folded in after the snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce, slotOf } from '../../../webroot/js/model.js';
import { tileView } from '../../../webroot/js/slotview.js';
import { T0, budget, history as goldenHistory, job, phase, restart, retired, slot, snapshot, snapshotBody } from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);
const texts = (model) => model.log.lines.map((l) => l.text);
const second = Math.floor(T0 / 1000);

/** An incident a minute before the page opened: w-0 crashed past its budget and retired. */
const incident = [
  restart('w-0', 'CRASH', ['w-0'], T0 - 60000, { cause: 'boom' }),
  phase('w-0', 'INSTALLING', 2, T0 - 60000),
  phase('w-0', 'IDLE', 2, T0 - 59990),
  budget('w-0', 5, 1, 5, T0 - 58000),
  retired('w-0', 'REPLACEMENT_UNAVAILABLE', 2, T0 - 58000),
  job({ type: 'interrupted', job: 'j-9', attempts: 1, reason: { kind: 'WORKER_STOPPED', worker: 'w-0', exit: 'CRASH' } },
    T0 - 58000),
];
const now = snapshotBody({ slots: [slot('w-0', { phase: 'RETIRED', retirement: 'REPLACEMENT_UNAVAILABLE',
  incarnation: 2, restarts: 1 }), slot('w-1')] });

const history = (events, extra = {}) => goldenHistory(events, T0, extra);

const words = 'the pool\'s restart budget is spent (5 of 5 restarts in the last 10 s across all slots;'
  + ' w-0 itself restarted 1 time)';

test('a page opened after an incident shows it: the log, the last exit and the retirement in words', () => {
  const m = fold([snapshot(now), history(incident)]);
  assert.deepEqual(texts(m), [
    'the 5 lines below happened before this connection (replayed by the server)',
    'job j-9 interrupted: w-0 stopped (CRASH) after 1 attempt(s)',
    `w-0 retired (REPLACEMENT_UNAVAILABLE): ${words}; it stopped (CRASH: boom) while running job job-17`,
    `restart budget refused replacing w-0: ${words}; it stopped (CRASH: boom) while running job job-17; w-0 retires`,
    'w-0 incarnation 2 is up',
    'w-0 stopped: CRASH (boom); replacing w-0',
  ]);
  assert.deepEqual(m.log.lines.map((l) => l.at).slice(1), [T0 - 58000, T0 - 58000, T0 - 58000, T0 - 59990, T0 - 60000]);
  const tile = tileView(slotOf(m, 'w-0'), m, T0);
  assert.equal(tile.reason.words, `${words}; it stopped (CRASH) while running job job-17`);
  assert.deepEqual(m.lastExits['w-0'], { exit: 'CRASH', cause: 'boom', at: T0 - 60000 });
});

test('replayed events never move the tiles: the snapshot is newer', () => {
  const m = fold([snapshot(now), history(incident)]);
  assert.deepEqual(m.snapshot, fold([snapshot(now)]).snapshot);
  assert.deepEqual(m.cues, {});
});

test('events arrive in any order and are logged oldest first', () => {
  const m = fold([snapshot(now), history([...incident].reverse())]);
  assert.equal(texts(m).at(-1), 'w-0 stopped: CRASH (boom); replacing w-0');
});

test('each slot\'s last exit comes from the frame, the newest of what is known winning', () => {
  const m = fold([snapshot(now), restart('w-1', 'TIMEOUT', ['w-1'], T0 + 5),
    history([], { lastExits: { 'w-0': { exit: 'NORMAL', cause: null, at: T0 - 1000 },
      'w-1': { exit: 'CRASH', cause: null, at: T0 - 1000 }, 'w-2': { nonsense: true } } })]);
  assert.deepEqual(m.lastExits, { 'w-0': { exit: 'NORMAL', cause: null, at: T0 - 1000 },
    'w-1': { exit: 'TIMEOUT', cause: null, at: T0 + 5 } });
  assert.match(tileView(slotOf(m, 'w-1'), m, T0).note, /^last exit: TIMEOUT at/);
});

test('the recorded series fills the chart\'s seconds', () => {
  const series = [
    { at: (second - 2) * 1000, completed: 40, failed: 1, interrupted: 0, rejected: 0 },
    { at: (second - 1) * 1000, completed: 38, failed: 0, interrupted: 2 },
  ];
  const m = fold([snapshot(now), history([], { series })]);
  assert.deepEqual(m.rates.buckets[second - 2], { completed: 40, failed: 1, interrupted: 0, rejected: 0 });
  assert.deepEqual(m.rates.buckets[second - 1], { completed: 38, failed: 0, interrupted: 2, rejected: 0 });
  assert.deepEqual(texts(m), [], 'no events, no marker line');
});

test('after a reconnect only the events of the gap are added; live events already replayed are not doubled', () => {
  let m = fold([snapshot(now), history(incident.slice(0, 3))]);
  const before = m.log.lines.length;
  const gap = restart('w-1', 'CRASH', ['w-1'], T0 + 2000);
  m = fold([snapshot(now, T0 + 3000), history([...incident.slice(0, 3), gap], { at: T0 + 3000 })], m);
  assert.equal(m.log.lines.length, before + 2, 'the gap\'s line and one marker');
  assert.equal(texts(m)[1], 'w-1 stopped: CRASH; replacing w-1');
  assert.equal(texts(m)[0], 'the 1 line below happened before this connection (replayed by the server)');
  const again = reduce(m, gap);
  assert.equal(again, m, 'the same event live after its replay changes nothing');
});

test('a history frame with nothing usable changes nothing but what it has', () => {
  const m = fold([snapshot(now)]);
  const after = reduce(m, { type: 'history', pool: 'jobs', at: T0, events: [null, 7, { type: 'restart' }], series: 'x' });
  assert.deepEqual(after.log.lines, []);
  assert.deepEqual(after.rates, m.rates);
  assert.deepEqual(after.snapshot, m.snapshot);
});
