// J8 on the page: the event log tells an incident with the pool's numbers and the jobs, poison
// and dead letters have lines of their own, and no burst of one kind pushes another out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_LIMIT, append, emptyLog } from '../../../webroot/js/logbook.js';
import { emptyModel, reduce } from '../../../webroot/js/model.js';
import { T0, budget, deadLetterRemoved, deadLettered, job, restart, retired, snapshot, snapshotBody } from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);
const texts = (model) => model.log.lines.map((l) => l.text);
const rejected = (i, at) => job({ type: 'rejected', job: `r-${i}`, reason: 'NO_RECOVERABLE_WORKERS' }, at);
const poisoned = (id, at) => job({ type: 'interrupted', job: id, attempts: 2, reason: { kind: 'POISON', stops: 2,
  last: { kind: 'WORKER_STOPPED', worker: 'w-1', exit: 'CRASH', cause: 'boom' } } }, at);

test('J8: a stop names the jobs it interrupted and says when the budget did not pay for it', () => {
  const m = fold([snapshot(),
    restart('w-0', 'CRASH', ['w-0'], T0 + 1, { cause: 'boom', jobs: ['j-1'], charged: true }),
    restart('w-1', 'TIMEOUT', ['w-1'], T0 + 2, { jobs: ['j-2', 'j-3'], charged: false, delayMs: 1000 })]);
  assert.deepEqual(texts(m), [
    'w-1 stopped: TIMEOUT while running jobs j-2 and j-3; replacing w-1 in 1 s; not charged to the restart budget (a suspect was running)',
    'w-0 stopped: CRASH (boom) while running job j-1; replacing w-0',
  ]);
});

test('J8: a budget refusal that stops the pool says so, with the job', () => {
  const m = fold([snapshot(), budget('w-0', 5, 1, 5, T0 + 1, { reaction: 'STOP_POOL', slotRestarts: 0 })]);
  assert.equal(texts(m)[0], 'restart budget refused replacing w-0: the pool\'s restart budget is spent (5 of 5'
    + ' restarts in the last 10 s across all slots; w-0 itself restarted 0 times); it stopped (CRASH: boom) while'
    + ' running job job-17; the pool stops (onBudgetExceeded STOP_POOL)');
});

test('J2: each poisoned job is a line of its own, never folded into another', () => {
  const m = fold([snapshot(), poisoned('p-1', T0 + 1), poisoned('p-2', T0 + 2)]);
  assert.deepEqual(texts(m), [
    'job p-2 is poison: its worker stopped 2 times while running it (the last time w-1, CRASH: boom); answered interrupted (POISON), not run again',
    'job p-1 is poison: its worker stopped 2 times while running it (the last time w-1, CRASH: boom); answered interrupted (POISON), not run again',
  ]);
  assert.equal(m.log.lines[0].kind, 'poison');
});

test('J5: dead letters kept and removed are logged, and their size is the count until the next snapshot', () => {
  let m = fold([snapshot(snapshotBody({ deadLetters: 2 })), deadLettered('p-1', 'POISON', 'w-1', 2, 3, T0 + 1)]);
  assert.equal(m.snapshot.deadLetters, 3);
  m = fold([deadLetterRemoved('old', 'EVICTED', 3, T0 + 1), deadLetterRemoved('p-1', 'REPLAYED', 2, T0 + 5),
    deadLetterRemoved('x', 'DISCARDED', 1, T0 + 6)], m);
  assert.equal(m.snapshot.deadLetters, 1);
  assert.deepEqual(texts(m), [
    'job x discarded from the dead-letter set; 1 kept',
    'job p-1 replayed from the dead-letter set; 2 kept',
    'job old evicted from the dead-letter set (the oldest, to make room); 3 kept',
    'job p-1 kept in the dead-letter set (POISON after 2 attempts, the last on w-1); 3 kept',
  ]);
  assert.ok(m.log.lines.every((l) => l.kindClass === 'dead'));
});

test('J5: a flood of failed jobs kept as dead letters, or of evictions, folds into a line each', () => {
  const frames = [snapshot()];
  for (let i = 0; i < 50; i++) {
    frames.push(deadLettered(`f-${i}`, 'FAILED', 'w-0', 1, 10, T0 + 2 * i));
    frames.push(deadLetterRemoved(`e-${i}`, 'EVICTED', 10, T0 + 2 * i + 1));
  }
  // Alternating, they do not fold into each other's line; each kind folds with its own.
  const m = fold(frames);
  assert.ok(m.log.lines.length <= 100);
  assert.ok(m.log.lines.some((l) => l.text.startsWith('job f-49 kept in the dead-letter set')));
});

test('a snapshot without a dead-letter count counts none, and one without waiting jobs has none waiting', () => {
  const body = snapshotBody();
  delete body.deadLetters;
  const m = fold([snapshot(body)]);
  assert.equal(m.snapshot.deadLetters, 0);
  assert.deepEqual([m.snapshot.backlog.waiting, m.snapshot.backlog.nextDue], [0, null]);
});

test('J8: past its limit the log lets go of the commonest kind first, so a burst of rejections keeps the incident', () => {
  let m = fold([snapshot(), budget('w-0', 5, 1, 5, T0), retired('w-0', 'REPLACEMENT_UNAVAILABLE', 2, T0)]);
  for (let i = 0; i < 2 * LOG_LIMIT; i++) {
    // Rejections 4 s apart never fold: each is a line.
    m = reduce(m, rejected(i, T0 + 4000 * (i + 1)));
  }
  assert.equal(m.log.lines.length, LOG_LIMIT);
  assert.ok(m.log.lines.some((l) => l.kindClass === 'retired'), 'the retirement is still there');
  assert.ok(m.log.lines.some((l) => l.kindClass === 'budget'), 'and the budget refusal');
  assert.equal(m.log.lines[0].text, `job r-${2 * LOG_LIMIT - 1} rejected: NO_RECOVERABLE_WORKERS`);
});

test('the log\'s bound drops the oldest line of the commonest kind', () => {
  let log = emptyLog();
  log = append(log, { at: 0, kindClass: 'a', kind: 'a', text: 'first a' });
  for (let i = 1; i <= LOG_LIMIT; i++) log = append(log, { at: i, kindClass: 'b', kind: 'b', text: `b${i}` });
  assert.equal(log.lines.length, LOG_LIMIT);
  assert.equal(log.lines.at(-1).text, 'first a');
  assert.equal(log.lines.at(-2).text, 'b2');
});

test('J8: a history frame replays dead letters and poison as lines, oldest first', () => {
  const m = fold([snapshot(), { type: 'history', pool: 'jobs', at: T0, series: [], lastExits: {}, events: [
    deadLettered('p-1', 'POISON', 'w-1', 2, 1, T0 - 100), poisoned('p-1', T0 - 100),
    rejected(1, T0 - 50)] }]);
  assert.deepEqual(texts(m).slice(1), [
    'job r-1 rejected: NO_RECOVERABLE_WORKERS',
    'job p-1 is poison: its worker stopped 2 times while running it (the last time w-1, CRASH: boom); answered interrupted (POISON), not run again',
    'job p-1 kept in the dead-letter set (POISON after 2 attempts, the last on w-1); 1 kept',
  ]);
});
