// J8: the words of an incident, the same as the pool's log says them (runtime/IncidentWords):
// both are checked against incident-words.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { human } from '../../../webroot/js/format.js';
import { budgetWords, poisonWords, refusalLine, retiredByBudgetLine, runningWords, stopWords }
  from '../../../webroot/js/reasons.js';

const cases = JSON.parse(readFileSync(new URL('./incident-words.json', import.meta.url), 'utf8'));

test('J8: every budget refusal reads as the pool\'s log reads it', () => {
  assert.ok(cases.refusals.length >= 5);
  for (const c of cases.refusals) {
    const refusal = { ...c.event, windowMs: c.windowMs };
    assert.equal(budgetWords(refusal), c.budget, c.name);
    assert.equal(refusalLine(refusal), c.refusal, c.name);
    assert.equal(retiredByBudgetLine(refusal), c.retired, c.name);
  }
});

test('J2, J8: a poisoned job reads as the pool\'s log reads it', () => {
  for (const c of cases.poison) {
    assert.equal(poisonWords(c.job, { kind: 'POISON', stops: c.stops, last: c.last }), c.words);
  }
});

test('durations are written as the pool\'s log writes them', () => {
  for (const [ms, text] of cases.durations) assert.equal(human(ms), text);
});

test('J8: the running jobs are named, and many are counted', () => {
  assert.equal(stopWords('CRASH', null, [], 0), 'it stopped (CRASH) with no job running');
  assert.equal(stopWords('TIMEOUT', 'slow', ['a'], undefined), 'it stopped (TIMEOUT: slow) while running job a');
  assert.equal(runningWords(['a', 'b', 'c'], 3), 'while running jobs a, b and c');
  assert.equal(runningWords(['a', 'b', 'c', 'd'], null), 'while running 4 jobs: a, b, c, …');
  assert.equal(runningWords(['a', 'b'], 40), 'while running 40 jobs: a, b, …', 'more jobs than the event lists');
  assert.equal(runningWords(undefined, undefined), 'with no job running');
});

test('a budget event from a server that does not say the slot\'s own restarts leaves them out', () => {
  assert.equal(budgetWords({ worker: 'w-0', restartsInWindow: 5, replacementsRequested: 1, maximumRestarts: 5,
    windowMs: 10000 }), 'the pool\'s restart budget is spent (5 of 5 restarts in the last 10 s across all slots)');
});
