// J8: the pool badge agrees with GET /health: the same rule, checked against health-cases.json,
// which HealthEndpointsTest checks web/PoolHealth against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { poolHealth } from '../../../webroot/js/health.js';
import { emptyModel, reduce } from '../../../webroot/js/model.js';
import { T0, retired, slot, snapshot, snapshotBody, state } from './frames.js';

const { cases } = JSON.parse(readFileSync(new URL('./health-cases.json', import.meta.url), 'utf8'));

test('J8: the badge follows the rule of /health, case by case', () => {
  assert.ok(cases.length >= 8);
  for (const c of cases) {
    assert.deepEqual(poolHealth(c.snapshot), { status: c.status, reason: c.reason }, c.name);
  }
  assert.equal(poolHealth(null), null);
});

test('J8: the badge turns DOWN the moment the last slot retires, before any snapshot says so', () => {
  let m = [snapshot(snapshotBody({ slots: [slot('w-0'), slot('w-1', { phase: 'RETIRED', retirement: 'CREATION_REJECTED' })] }))]
    .reduce(reduce, emptyModel('jobs'));
  assert.equal(poolHealth(m.snapshot).status, 'UP');
  m = reduce(m, retired('w-0', 'REPLACEMENT_UNAVAILABLE', 2, T0 + 5));
  assert.deepEqual(poolHealth(m.snapshot), { status: 'DOWN',
    reason: 'every slot is retired: w-0 REPLACEMENT_UNAVAILABLE, w-1 CREATION_REJECTED' });
  m = reduce(m, state('DRAINING', T0 + 6));
  assert.deepEqual(poolHealth(m.snapshot), { status: 'DOWN', reason: 'the pool is DRAINING' });
});
