// Slots on worker hosts: the snapshot's `host` and `hosts`, phase LOST, retirement HOST_LOST.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce, slotOf } from '../../../webroot/js/model.js';
import { groupStatus, hostGroups, tileView } from '../../../webroot/js/slotview.js';
import { T0, phase, retired, slot, snapshot, snapshotBody, stats } from './frames.js';

const fold = (frames) => frames.reduce(reduce, emptyModel('jobs'));

function clustered(h1State = 'UP', slotPhase = 'IDLE') {
  return snapshotBody({
    slots: [
      slot('h2/w-0', { host: 'h2' }),
      slot('w-0'),
      slot('h1/w-0', { host: 'h1', phase: slotPhase }),
      slot('h1/w-1', { host: 'h1', phase: slotPhase }),
    ],
    hosts: [
      { id: 'h1', node: 'node-a', state: h1State, slots: 2, since: T0 - 60000 },
      { id: 'h2', node: 'node-b', state: 'UP', slots: 1, since: T0 - 50000 },
    ],
  });
}

test('a pool with no hosts is one group with no title, as before hosts existed', () => {
  const groups = hostGroups(fold([snapshot()]).snapshot);
  assert.deepEqual(groups.map((g) => [g.key, g.title, g.slots.map((s) => s.id)]), [['local', null, ['w-0', 'w-1']]]);
});

test('slots group by host: local slots first, then hosts in the snapshot\'s order', () => {
  const m = fold([snapshot(clustered())]);
  const groups = hostGroups(m.snapshot);
  assert.deepEqual(groups.map((g) => [g.key, g.slots.map((s) => s.id)]), [
    ['local', ['w-0']], ['host:h1', ['h1/w-0', 'h1/w-1']], ['host:h2', ['h2/w-0']]]);
  assert.deepEqual(groups.map((g) => g.lost), [false, false, false]);
  assert.equal(groupStatus(groups[0]), 'on the coordinator\'s node · 1 slot');
  assert.equal(groupStatus(groups[1]), 'UP · node node-a · 2 slots');
});

test('a host that only its slots name still gets a group, after the known hosts', () => {
  const body = clustered();
  body.slots.push(slot('h3/w-0', { host: 'h3' }));
  assert.deepEqual(hostGroups(fold([snapshot(body)]).snapshot).map((g) => g.key),
    ['local', 'host:h1', 'host:h2', 'host:h3']);
});

test('a pool running on hosts alone has no local group', () => {
  const body = clustered();
  body.slots = body.slots.filter((s) => s.host);
  assert.deepEqual(hostGroups(fold([snapshot(body)]).snapshot).map((g) => g.key), ['host:h1', 'host:h2']);
});

test('a lost host is shown lost, with since when, and its slots say why they are out of reach', () => {
  const m = fold([snapshot(clustered('LOST', 'LOST'))]);
  const h1 = hostGroups(m.snapshot)[1];
  assert.equal(h1.lost, true);
  assert.match(groupStatus(h1), /^LOST since \d\d:\d\d:\d\d · node node-a · 2 slots$/);
  const tile = tileView(slotOf(m, 'h1/w-0'), m, T0);
  assert.equal(tile.phaseText, 'LOST');
  assert.equal(tile.jobsText, 'out of reach');
  assert.match(tile.note, /^host h1 unreachable since \d\d:\d\d:\d\d$/);
});

test('LOST phase events turn the tiles, and a host whose slots are all LOST reads as lost at once', () => {
  let m = fold([snapshot(clustered())]);
  m = reduce(m, phase('h1/w-0', 'LOST', 1, T0 + 10));
  assert.equal(hostGroups(m.snapshot)[1].lost, false, 'one slot of two');
  m = reduce(m, phase('h1/w-1', 'LOST', 1, T0 + 10));
  assert.equal(hostGroups(m.snapshot)[1].lost, true);
  assert.deepEqual(m.log.lines.map((l) => [l.kind, l.text]), [
    ['lost', 'h1/w-1 lost: host h1 is unreachable'], ['lost', 'h1/w-0 lost: host h1 is unreachable']]);
});

test('HOST_LOST retirement says which host stayed lost', () => {
  let m = fold([snapshot(clustered('LOST', 'LOST'))]);
  m = reduce(m, retired('h1/w-0', 'HOST_LOST', 1, T0 + 30000));
  const tile = tileView(slotOf(m, 'h1/w-0'), m, T0 + 30000);
  assert.deepEqual(tile.reason, { name: 'HOST_LOST', words: 'host h1 stayed lost past the grace period' });
  assert.equal(m.log.lines[0].text, 'h1/w-0 retired (HOST_LOST): host h1 stayed lost past the grace period');
});

test('a host that comes back is shown up again by the next stats', () => {
  let m = fold([snapshot(clustered('LOST', 'LOST'))]);
  m = reduce(m, stats(clustered('UP', 'IDLE'), T0 + 500));
  assert.deepEqual(hostGroups(m.snapshot).map((g) => g.lost), [false, false, false]);
});
