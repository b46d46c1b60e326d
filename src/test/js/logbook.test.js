// The event log's lines: folding, the bound, and words for every kind of event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FOLD_MS, LOG_LIMIT, append, emptyLog, lineFor } from '../../../webroot/js/logbook.js';
import { emptyModel } from '../../../webroot/js/model.js';
import { nameParts } from '../../../webroot/js/reasons.js';
import { clock, human, plural, rate } from '../../../webroot/js/format.js';

const line = (at, text, group) => ({ at, kindClass: 'k', kind: 'k', text, group });

test('alike lines fold only while they come close together, and never across other lines', () => {
  let log = emptyLog();
  log = append(log, line(0, 'a1', 'g'));
  log = append(log, line(FOLD_MS - 1, 'a2', 'g'));
  assert.deepEqual(log.lines.map((l) => [l.text, l.count]), [['a2 (and 1 more like it)', 2]]);
  log = append(log, line(2 * FOLD_MS, 'a3', 'g'));
  log = append(log, line(2 * FOLD_MS + 1, 'b', 'h'));
  log = append(log, line(2 * FOLD_MS + 2, 'a4', 'g'));
  assert.deepEqual(log.lines.map((l) => l.text), ['a4', 'b', 'a3', 'a2 (and 1 more like it)']);
  assert.equal(new Set(log.lines.map((l) => l.id)).size, 4, 'each line its own id');
});

test('the log keeps the newest LOG_LIMIT lines', () => {
  let log = emptyLog();
  for (let i = 0; i < LOG_LIMIT + 20; i++) log = append(log, line(i, `l${i}`));
  assert.equal(log.lines.length, LOG_LIMIT);
  assert.equal(log.lines[0].text, `l${LOG_LIMIT + 19}`);
  assert.equal(log.lines.at(-1).text, 'l20');
});

test('phases other than backoff, a fresh incarnation and LOST make no line', () => {
  const m = emptyModel('jobs');
  const ph = (phase, incarnation) => ({ type: 'phase', at: 1, worker: 'w-0', phase, incarnation });
  assert.equal(lineFor(ph('INSTALLING', 2), m), null);
  assert.equal(lineFor(ph('IDLE', 1), m), null);
  assert.equal(lineFor({ type: 'stats', at: 1 }, m), null);
  assert.equal(lineFor({ type: 'restart', at: 1, worker: 'w-0', exit: 'NORMAL', replaced: [] }, m).text,
    'w-0 stopped: NORMAL; not replaced');
});

test('reason names break only after their underscores', () => {
  assert.deepEqual(nameParts('REPLACEMENT_UNAVAILABLE'), ['REPLACEMENT_', 'UNAVAILABLE']);
  assert.deepEqual(nameParts('HOST_LOST'), ['HOST_', 'LOST']);
  assert.deepEqual(nameParts('CREATION_REJECTED'), ['CREATION_', 'REJECTED']);
  assert.deepEqual(nameParts('RETIRED'), ['RETIRED']);
});

test('times, durations and rates are written short', () => {
  assert.match(clock(Date.UTC(2025, 0, 1, 0, 0, 0, 7)), /^\d\d:\d\d:\d\d\.007$/);
  assert.deepEqual([250, 1000, 1500, 10000, 60000, 90000].map(human), ['250 ms', '1 s', '1.5 s', '10 s', '1 min', '1.5 min']);
  assert.deepEqual([0, 0.4, 2.25, 12.34, 123.4].map(rate), ['0.0', '0.4', '2.25', '12.3', '123']);
  assert.deepEqual([plural(1, 'restart'), plural(6, 'restart')], ['1 restart', '6 restarts']);
});
