// The golden frames (golden/*.json, written by GoldenFramesTest from the real encoders) are what
// the page is sent: the model takes each of them, and the fixtures of frames.js carry exactly
// their fields, so a test that passes here passes against the server's shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce, slotOf } from '../../../webroot/js/model.js';
import { deadList, rowWords } from '../../../webroot/js/deadletters.js';
import {
  T0, budget, counters, deadLetterRemoved, deadLettered, golden, history, job, phase, recovered, restart, retired,
  revive, slot, snapshot, snapshotBody, state, stats,
} from './frames.js';

const keys = (value) => Object.keys(value).sort();

test('every golden snapshot frame becomes the model of its slots', () => {
  for (const [name, frame] of Object.entries(golden.snapshots)) {
    const m = reduce(emptyModel('jobs'), frame);
    for (const s of frame.snapshot.slots) {
      assert.ok(slotOf(m, s.id), `${name}: slot ${s.id}`);
    }
  }
});

test('every golden event and job frame is taken by the model after a snapshot', () => {
  const busy = reduce(emptyModel('jobs'), golden.snapshots.busySnapshot);
  for (const [name, frame] of [...Object.entries(golden.events), ...Object.entries(golden.jobs)]) {
    assert.doesNotThrow(() => reduce(busy, frame), name);
  }
  assert.doesNotThrow(() => reduce(busy, golden.history.empty));
});

test('a job event carries no payload or result, as the server clips it', () => {
  for (const [name, frame] of Object.entries(golden.jobs)) {
    assert.ok(!('payload' in frame.outcome) && !('result' in frame.outcome), name);
  }
});

test('the fixtures carry exactly the fields the server sends', () => {
  const { snapshot: plain, stats: plainStats } = golden.snapshots;
  const e = golden.events;
  const pairs = [
    [snapshot(), plain], [stats(snapshotBody(), T0), plainStats],
    [snapshotBody(), plain.snapshot], [slot('w-9'), plain.snapshot.slots[0]], [counters(), plain.snapshot.counters],
    [phase('w-0', 'IDLE', 1, T0), e.phase], [retired('w-0', 'REPLACEMENT_UNAVAILABLE', 1, T0), e.retired],
    [restart('w-0', 'CRASH', ['w-0'], T0), e.restart], [budget('w-0', 5, 1, 5, T0), e.budget],
    [deadLettered('j', 'POISON', 'w-0', 3, 1, T0), e.deadLettered],
    [deadLetterRemoved('j', 'REPLAYED', 0, T0), e.deadLetterRemoved],
    [revive('w-0', 2, 'operator', T0), e.revive], [state('DRAINING', T0), e.state],
    [recovered(2, 1, 4, 1, T0), e.recovered], [job(golden.jobs.failed.outcome, T0), golden.jobs.failed],
    [history([], T0), golden.history.empty],
  ];
  for (const [built, real] of pairs) {
    assert.deepEqual(keys(built), keys(real), `${real.type ?? 'part'} fixture`);
  }
  // The busy snapshot has every part a snapshot can have: hosts, ha, a waiting backlog.
  assert.deepEqual(keys(plain.snapshot), keys(golden.snapshots.busySnapshot.snapshot).filter((k) => k !== 'ha'));
  assert.deepEqual(keys(golden.snapshots.busySnapshot.snapshot.slots[2]), keys(plain.snapshot.slots[0]));
});

test('J5: the golden dead-letter page lists and words its entry', () => {
  const list = deadList(golden.deadLetters.page);
  assert.equal(list.rows.length, 1);
  assert.equal(list.rows[0].job, golden.deadLetters.entry.job);
  assert.ok(rowWords(list.rows[0]).length > 0);
});
