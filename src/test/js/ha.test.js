// Coordinator high availability in the live view: the snapshot's `ha` block in the header, and a
// failover (the term grew between two snapshots) as a notice that stays a while and a log line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAILOVER_NOTICE_MS, failoverNotice, failoverOf, haView, shortNode } from '../../../webroot/js/ha.js';
import { emptyModel, reduce } from '../../../webroot/js/model.js';
import { T0, snapshot, snapshotBody, stats } from './frames.js';

const history = (events, at) => ({ type: 'history', pool: 'jobs', at, events, series: [], lastExits: {} });
const fold = (frames) => frames.reduce(reduce, emptyModel('jobs'));
const NODE_A = '3f2a9c1e-7b44-4e1a-9d0b-1c2d3e4f5a6b';
const NODE_B = 'b7c81d02-aa19-4b7e-8a55-0f1e2d3c4b5a';
const ha = (term, active = NODE_A, available = true) =>
  snapshotBody({ ha: { enabled: true, available, active, term } });

test('the header shows the active coordinator (short) and the term of an HA pool', () => {
  const view = haView(fold([snapshot(ha(3))]).snapshot);
  assert.deepEqual(view, { text: 'HA · active 3f2a9c1e · term 3', available: true,
    title: `HA available; active coordinator on node ${NODE_A}; term 3` });
});

test('the header says plainly that HA is unavailable when the cluster has no majority', () => {
  const view = haView(fold([snapshot(ha(1, NODE_A, false))]).snapshot);
  assert.equal(view.text, 'HA unavailable · active 3f2a9c1e · term 1');
  assert.equal(view.available, false);
  assert.match(view.title, /^HA unavailable: fewer than three cluster members/);
});

test('a pool without HA, or with enabled:false, shows no HA badge', () => {
  assert.equal(haView(fold([snapshot()]).snapshot), null);
  assert.equal(haView(fold([snapshot(snapshotBody({ ha: { enabled: false } }))]).snapshot), null);
  assert.equal(haView(null), null);
});

test('an HA block with odd fields still renders, without throwing', () => {
  for (const block of [{ enabled: true }, { enabled: true, active: 42, term: 'x' },
    { enabled: true, active: '', term: 2.5, available: 'yes' }]) {
    const view = haView(snapshotBody({ ha: block }));
    assert.match(view.text, /^HA unavailable · active none · term \?$/);
  }
});

test('short node ids stay whole; long (UUID) ones keep their first 8 characters', () => {
  assert.equal(shortNode('node-a'), 'node-a');
  assert.equal(shortNode(NODE_B), 'b7c81d02');
  assert.equal(shortNode(null), 'none');
});

test('a term that grew between two snapshots is a failover: notice and log line', () => {
  const m = fold([snapshot(ha(3, NODE_A), T0), stats(ha(4, NODE_B), T0 + 2000)]);
  assert.deepEqual(m.failover, { from: 3, to: 4, node: NODE_B, at: T0 + 2000 });
  assert.equal(failoverNotice(m, T0 + 2500), 'failover: term 3 → 4, now b7c81d02');
  assert.equal(m.log.lines[0].kind, 'failover');
  assert.equal(m.log.lines[0].text, 'failover: term 3 → 4, now b7c81d02');
  assert.equal(haView(m.snapshot).text, 'HA · active b7c81d02 · term 4');
});

test('the failover notice stays for a while, then goes; the log line stays', () => {
  const m = fold([snapshot(ha(3)), stats(ha(4, NODE_B), T0 + 1000)]);
  assert.ok(failoverNotice(m, T0 + 1000 + FAILOVER_NOTICE_MS - 1));
  assert.equal(failoverNotice(m, T0 + 1000 + FAILOVER_NOTICE_MS), null);
  assert.equal(m.log.lines.filter((l) => l.kind === 'failover').length, 1);
});

test('the same term again, a lower term, or the first snapshot is no failover', () => {
  assert.equal(fold([snapshot(ha(5))]).failover, null);
  assert.equal(fold([snapshot(ha(5)), stats(ha(5), T0 + 1000)]).failover, null);
  assert.equal(fold([snapshot(ha(5)), stats(ha(2), T0 + 1000)]).failover, null);
  assert.equal(failoverOf(snapshotBody(), ha(2)), null);
  assert.equal(failoverOf(ha(1), snapshotBody()), null);
});

test('a failover seen across a reconnect (a new snapshot frame) counts too, once per change', () => {
  const m = fold([snapshot(ha(1)), snapshot(ha(2, NODE_B), T0 + 7000), stats(ha(2, NODE_B), T0 + 8000),
    stats(ha(3, NODE_A), T0 + 9000)]);
  assert.deepEqual(m.log.lines.filter((l) => l.kind === 'failover').map((l) => l.text),
    ['failover: term 2 → 3, now 3f2a9c1e', 'failover: term 1 → 2, now b7c81d02']);
  assert.equal(m.failover.to, 3);
});

test('a failover line does not hide older events a history frame replays after it', () => {
  const m = fold([snapshot(ha(1), T0), snapshot(ha(2, NODE_B), T0 + 9000),
    history([{ type: 'state', pool: 'jobs', at: T0 + 4000, state: 'RUNNING' }], T0 + 9000)]);
  assert.ok(m.log.lines.some((l) => l.text === 'pool jobs is RUNNING'));
});
