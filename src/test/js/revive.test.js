// Bringing a retired slot back: the tile's Restart button and the event log's revive lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce, slotOf } from '../../../webroot/js/model.js';
import { tileView } from '../../../webroot/js/slotview.js';
import { T0, budget, phase, retired, revive, slot, snapshot, snapshotBody } from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);
const texts = (model) => model.log.lines.map((l) => l.text);
const retiredSlot = (retirement, fields = {}) =>
  slot('w-1', { phase: 'RETIRED', retirement, incarnation: 2, restarts: 1, ...fields });

test('a retired tile offers Restart, unless its host is lost (it comes back with its host)', () => {
  for (const [retirement, offered] of [['REPLACEMENT_UNAVAILABLE', true], ['CREATION_REJECTED', true],
    ['HOST_LOST', false]]) {
    const m = fold([snapshot(snapshotBody({ slots: [slot('w-0'), retiredSlot(retirement, { host: 'h1' })] }))]);
    assert.equal(tileView(slotOf(m, 'w-1'), m, T0).restartable, offered, retirement);
  }
  const m = fold([snapshot()]);
  for (const phaseName of ['IDLE', 'ASSIGNED', 'INSTALLING', 'BACKING_OFF', 'LOST']) {
    const s = { ...slotOf(m, 'w-0'), phase: phaseName };
    assert.equal(tileView(s, m, T0).restartable, false, phaseName);
  }
});

test('a revive by an operator is logged, and the tile follows the phase events after it', () => {
  const m = fold([
    snapshot(snapshotBody({ slots: [slot('w-0'), slot('w-1')] })),
    budget('w-1', 5, 1, 5, T0 + 1),
    retired('w-1', 'REPLACEMENT_UNAVAILABLE', 1, T0 + 1),
    revive('w-1', 2, 'operator', T0 + 50),
    phase('w-1', 'INSTALLING', 2, T0 + 50),
    phase('w-1', 'IDLE', 2, T0 + 60),
  ]);
  assert.deepEqual(texts(m).slice(0, 2), ['w-1 incarnation 2 is up', 'w-1 revived as incarnation 2 by an operator']);
  assert.equal(m.log.lines[1].kindClass, 'revive');
  const tile = tileView(slotOf(m, 'w-1'), m, T0 + 60);
  assert.equal(tile.phase, 'IDLE');
  assert.equal(tile.restartable, false);
  assert.equal(tile.reason, null);
  assert.deepEqual(m.retirements, {}, 'the retirement it came back from is forgotten');
  assert.equal(m.cues['w-1'].incarnation, 2, 'the tile shows its restart cue');
});

test('a revive by reviveAfterMs says so', () => {
  const m = fold([snapshot(), revive('w-0', 3, 'reviveAfterMs', T0 + 10, 'CREATION_REJECTED')]);
  assert.deepEqual(texts(m), ['w-0 revived as incarnation 3 after reviveAfterMs']);
});

test('a revive replayed in a history frame and then seen live is logged once', () => {
  const r = revive('w-0', 2, 'operator', T0 - 100);
  const m = fold([snapshot(), { type: 'history', pool: 'jobs', at: T0, events: [r], series: [], lastExits: {} }, r]);
  assert.equal(texts(m).filter((t) => t.includes('revived')).length, 1);
});
