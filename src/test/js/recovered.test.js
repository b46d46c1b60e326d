// A highly available pool's takeover as the event log tells it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyModel, reduce } from '../../../webroot/js/model.js';
import { T0, recovered, snapshot } from './frames.js';

const fold = (frames, model = emptyModel('jobs')) => frames.reduce(reduce, model);

test('a takeover is logged with its terms, the jobs recovered and the running ones interrupted', () => {
  const m = fold([snapshot(), recovered(4, 3, 120, 8, T0 + 10)]);
  assert.equal(m.log.lines[0].text,
    'coordinator took over in term 4 (from term 3): 120 accepted jobs recovered, 8 running jobs interrupted (NODE_LOST)');
  assert.equal(m.log.lines[0].kindClass, 'failover');
});

test('a first leader with nothing to recover says so plainly', () => {
  const m = fold([snapshot(), recovered(1, 0, 0, 0, T0 + 10)]);
  assert.equal(m.log.lines[0].text, 'coordinator took over in term 1 (from term 0): 0 accepted jobs recovered');
});
