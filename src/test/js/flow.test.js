// Flow control on the page (F1, F5): the PAUSED badge with since when, the groups panel and the
// Pause/Resume button, from the golden frames the server writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce } from '../../../webroot/js/model.js';
import { flowView } from '../../../webroot/js/flowview.js';
import { clock } from '../../../webroot/js/format.js';
import { T0, golden } from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);

test('a paused pool shows PAUSED since when, its busiest groups and a Resume button', () => {
  const m = fold([golden.snapshots.flowSnapshot]);
  const v = flowView(m.snapshot, T0);
  assert.equal(v.paused, true);
  assert.equal(v.badge, `PAUSED since ${clock(T0 - 30_000)}`);
  assert.equal(v.button, 'Resume pool');
  assert.deepEqual(v.groups.map((g) => [g.name, g.running, g.queued]), [['tenant-a', 1, 5], ['tenant-b', 0, 3]]);
  assert.equal(v.groups[0].limit, '2 running · 100 queued · 5/1 s');
  assert.equal(v.groups[0].state, 'held 1 s (rate limited)');
  assert.equal(v.groups[1].limit, 'weight 2');
  assert.equal(v.groups[1].state, `paused since ${clock(T0 - 10_000)}`);
  assert.equal(v.more, '5 more groups not shown (the busiest first)');
});

test('a pool that is not paused shows no badge and a Pause button', () => {
  const v = flowView(fold([golden.snapshots.snapshot]).snapshot, T0);
  assert.equal(v.paused, false);
  assert.equal(v.badge, '');
  assert.equal(v.button, 'Pause pool');
  assert.deepEqual(v.groups, []);
  assert.equal(v.more, '');
});

test('pause and resume events move the badge and are logged; a group change updates its row', () => {
  const paused = fold([golden.snapshots.snapshot, golden.events.paused]);
  assert.equal(flowView(paused.snapshot, T0).badge, `PAUSED since ${clock(T0)}`);
  assert.match(paused.log.lines[0].text, /pool jobs paused by an operator/);
  const resumed = reduce(paused, { ...golden.events.resumed, at: T0 + 1 });
  assert.equal(flowView(resumed.snapshot, T0).paused, false);
  assert.match(resumed.log.lines[0].text, /pool jobs resumed/);

  const grouped = fold([golden.snapshots.flowSnapshot, golden.events.groupPaused]);
  const b = flowView(grouped.snapshot, T0).groups.find((g) => g.name === 'tenant-b');
  assert.equal(b.limit, '2 running');
  assert.match(grouped.log.lines[0].text, /group tenant-b set to concurrency 2/);
});
