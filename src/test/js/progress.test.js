// T2: a job's progress report shows on the tile of the slot that runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce, slotOf } from '../../../webroot/js/model.js';
import { progressText, tileView } from '../../../webroot/js/slotview.js';
import { T0, slot, snapshot, snapshotBody } from './frames.js';

const running = snapshot(snapshotBody({
  slots: [slot('w-0', { phase: 'ASSIGNED', inFlight: 1, assignments: [{ assignment: 1, job: 'j1' }] })],
}));
const report = (job, progress) => ({ type: 'progress', pool: 'jobs', at: T0, job, worker: 'w-0',
  attempt: 1, progress });

test('the tile of a slot shows the last progress of the job it runs', () => {
  let m = reduce(emptyModel('jobs'), running);
  m = reduce(m, report('j1', { step: 1, of: 4 }));
  m = reduce(m, report('j1', { step: 2, of: 4 }));
  const tile = tileView(slotOf(m, 'w-0'), m, T0);
  assert.equal(tile.progress, 'step 2/4');
  assert.equal(tile.jobsText, 'j1 (step 2/4)');
});

test('a report of a job the slot no longer runs is not shown', () => {
  let m = reduce(emptyModel('jobs'), running);
  m = reduce(m, report('old', { step: 1, of: 2 }));
  assert.equal(tileView(slotOf(m, 'w-0'), m, T0).jobsText, 'j1');
});

test('progress in words: steps, clipped JSON, nothing', () => {
  assert.equal(progressText({ step: 3, of: 9 }), 'step 3/9');
  assert.equal(progressText({ rows: 12 }), '{"rows":12}');
  assert.equal(progressText({ text: 'x'.repeat(80) }).length, 40);
  assert.equal(progressText(null), '');
});

test('a malformed progress frame changes nothing', () => {
  const m = reduce(emptyModel('jobs'), running);
  assert.equal(reduce(m, { type: 'progress', pool: 'jobs', job: 7 }), m);
});
