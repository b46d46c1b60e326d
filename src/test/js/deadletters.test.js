// J5 on the page: the dead-letter panel's list, words and requests, with a stubbed fetch and
// clock (the routes are the pool's HTTP API: GET …/dead, POST …/dead/<job>/replay, DELETE …).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEAD_LIMIT, deadList, deadPath, discardResult, listError, listPath, listWords, replayResult, rowWords }
  from '../../../webroot/js/deadletters.js';
import { MIN_GAP_MS, createDeadFeed } from '../../../webroot/js/deadfeed.js';
import { T0, golden as goldenFrames } from './frames.js';

const golden = goldenFrames.deadLetters;
const entry = (job, reason, fields = {}) => {
  const real = structuredClone(golden.entry);
  return { ...real, job, key: null, reason, payload: { crash: true }, bytes: 40, attempts: [
    { ...real.attempts[0], startedAt: 1, endedAt: 2, detail: 'boom 1' },
    { ...real.attempts[1], incarnation: 3, startedAt: 3, endedAt: 4, detail: 'boom 2' }],
  answer: { ...real.answer, job, payload: { crash: true }, reason: { ...real.answer.reason, kind: reason } },
  at: T0, ...fields };
};
const page = (entries, fields = {}) => ({ ...structuredClone(golden.page), size: entries.length, limit: DEAD_LIMIT,
  entries, ...fields });

/** A fetch that answers from `answers` (a function of url and init) and records each call. */
function stubFetch(answers) {
  const calls = [];
  const pending = [];
  const fetchImpl = (url, init = {}) => {
    calls.push({ url, method: init.method || 'GET', headers: init.headers || {}, body: init.body });
    const [status, json] = answers(url, init);
    const res = { status, ok: status >= 200 && status < 300, json: async () => json };
    return new Promise((resolve) => pending.push(() => resolve(res)));
  };
  /** Answers every request made so far, and lets the feed go on. */
  const flush = async () => {
    while (pending.length) pending.shift()();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { calls, fetchImpl, flush };
}

function stubClock() {
  let now = 1000;
  const timers = [];
  return {
    now: () => now,
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      const i = timers.indexOf(t);
      if (i >= 0) timers.splice(i, 1);
    },
    advance(ms) {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    },
    pending: () => timers.length,
  };
}

function feed(answers, extra = {}) {
  const net = stubFetch(answers);
  const clock = stubClock();
  const lists = [];
  const errors = [];
  const f = createDeadFeed({ onList: (l) => lists.push(l), onError: (e) => errors.push(e),
    headers: () => ({ 'Content-Type': 'application/json', Authorization: 'Bearer t' }),
    fetchImpl: net.fetchImpl, setTimer: clock.setTimer, clearTimer: clock.clearTimer, now: clock.now, ...extra });
  return { f, net, clock, lists, errors };
}

test('J5: paths name the pool and the job, escaped', () => {
  assert.equal(deadPath('jobs'), '/api/pools/jobs/dead');
  assert.equal(deadPath('a b', 'j/1', 'replay'), '/api/pools/a%20b/dead/j%2F1/replay');
  assert.equal(listPath('jobs'), `/api/pools/jobs/dead?limit=${DEAD_LIMIT}`);
});

test('J5: each entry shows its job, reason, attempts and last slot', () => {
  const list = deadList(page([entry('p-1', 'POISON'), entry('f-1', 'FAILED', { key: 'k', attempts: [] }),
    { nonsense: true }, null], { size: 7, evicted: 3 }));
  assert.deepEqual(list.rows.map((r) => [r.job, r.reason, r.attempts, r.worker, r.ended]),
    [['p-1', 'POISON', 2, 'w-1', 'CRASH'], ['f-1', 'FAILED', 2, null, null]]);
  assert.equal(list.rows[0].detail, 'boom 2');
  assert.match(rowWords(list.rows[0]), /^2 attempts · last on w-1 \(CRASH\) · \d\d:\d\d:\d\d$/);
  assert.match(rowWords(list.rows[1]), /^2 attempts · key k · /);
  assert.equal(listWords(list, 7), 'the newest 2 of 7 shown; 3 evicted to make room');
  assert.equal(listWords(deadList(page([entry('a', 'POISON')])), 1), '1 job kept');
  assert.equal(deadList({ entries: 'x' }), null);
  assert.equal(deadList(null), null);
});

test('J5: what replay and discard answered, in words', () => {
  assert.deepEqual(replayResult('p-1', 200, { type: 'accepted', job: 'p-1' }), ['job p-1 replayed: accepted again', true]);
  assert.deepEqual(replayResult('p-1', 429, { type: 'rejected', job: 'p-1', reason: 'BACKLOG_FULL', message: 'full' }),
    ['job p-1 not replayed: rejected BACKLOG_FULL (full)', false]);
  assert.deepEqual(replayResult('p-1', 404, { error: 'UNKNOWN_JOB', message: 'x' }),
    ['job p-1 not replayed: it is no longer kept', false]);
  assert.deepEqual(replayResult('p-1', 401, { error: 'UNAUTHORIZED', message: 'needs a token' }),
    ['job p-1 not replayed: UNAUTHORIZED: needs a token', false]);
  assert.deepEqual(discardResult('p-1', 200, { job: 'p-1', discarded: true }), ['job p-1 discarded', true]);
  assert.deepEqual(discardResult('p-1', 404, { error: 'UNKNOWN_JOB' }), ['job p-1 not discarded: it is no longer kept', false]);
  assert.deepEqual(discardResult('p-1', 403, { error: 'FORBIDDEN', message: 'Origin' }),
    ['job p-1 not discarded: FORBIDDEN: Origin', false]);
  assert.equal(listError(404, { error: 'NOT_FOUND', message: 'no route' }),
    'dead letters: this server has no dead-letter routes (NOT_FOUND)');
  assert.equal(listError(404, { error: 'UNKNOWN_POOL', message: 'no pool x' }), 'dead letters: UNKNOWN_POOL: no pool x');
});

test('J5: showing a pool reads its newest entries at once, without the JSON content type', async () => {
  const { f, net, lists } = feed(() => [200, page([entry('p-1', 'POISON')])]);
  f.show('jobs');
  assert.deepEqual(net.calls.map((c) => [c.method, c.url]), [['GET', '/api/pools/jobs/dead?limit=20']]);
  assert.deepEqual(net.calls[0].headers, { Authorization: 'Bearer t' });
  await net.flush();
  assert.equal(lists.at(-1).rows[0].job, 'p-1');
  assert.equal(lists[0], null, 'the old list is cleared first');
});

test('J5: a burst of dead-letter events costs one request in flight and one after the gap', async () => {
  const { f, net, clock } = feed(() => [200, page([])]);
  f.show('jobs');
  for (let i = 0; i < 100; i++) f.refresh();
  assert.equal(net.calls.length, 1, 'one in flight');
  await net.flush();
  assert.equal(net.calls.length, 1, 'the next waits for the gap');
  assert.equal(clock.pending(), 1);
  for (let i = 0; i < 100; i++) f.refresh();
  clock.advance(MIN_GAP_MS);
  assert.equal(net.calls.length, 2);
  await net.flush();
  assert.equal(clock.pending(), 0, 'nothing more asked, nothing more read');
});

test('J5: a snapshot whose count differs from the list reads it again; the same count does not', async () => {
  const { f, net, clock } = feed(() => [200, page([entry('a', 'POISON')])]);
  f.show('jobs');
  await net.flush();
  clock.advance(MIN_GAP_MS);
  f.sawCount(1);
  f.sawCount(undefined);
  assert.equal(net.calls.length, 1);
  f.sawCount(2);
  assert.equal(net.calls.length, 2);
});

test('J5: a server without the routes, or away, is said once and not asked again by snapshots', async () => {
  const { f, net, errors } = feed(() => [404, { error: 'NOT_FOUND', message: 'no route for /api/pools/jobs/dead' }]);
  f.show('jobs');
  await net.flush();
  f.sawCount(3);
  assert.equal(net.calls.length, 1);
  assert.deepEqual(errors, ['dead letters: this server has no dead-letter routes (NOT_FOUND)']);

  const away = feed(() => {
    throw new TypeError('Failed to fetch');
  }, {});
  away.f.show('jobs');
  await away.net.flush();
  assert.deepEqual(away.errors, ['dead letters: the server did not answer (Failed to fetch)']);
});

test('J5: a list for a pool no longer shown is dropped, and the pool shown is read', async () => {
  const { f, net, lists } = feed((url) => [200, page([entry(url.includes('/a/') ? 'from-a' : 'from-b', 'POISON')])]);
  f.show('a');
  f.show('b');
  await net.flush();
  await net.flush();
  assert.deepEqual(net.calls.map((c) => c.url), ['/api/pools/a/dead?limit=20', '/api/pools/b/dead?limit=20']);
  assert.deepEqual(lists.filter(Boolean).map((l) => l.rows[0].job), ['from-b']);
});

test('J5: replay posts {} with the page\'s headers and discard deletes, each then reading the list again', async () => {
  const { f, net, clock } = feed((url, init) => {
    if (init.method === 'POST') return [200, { type: 'accepted', job: 'p/1' }];
    if (init.method === 'DELETE') return [200, { job: 'p-2', discarded: true }];
    return [200, page([])];
  });
  f.show('jobs');
  await net.flush();
  const replayed = f.replay('p/1');
  await net.flush();
  assert.deepEqual(await replayed, ['job p/1 replayed: accepted again', true]);
  clock.advance(MIN_GAP_MS);
  await net.flush();
  const discarded = f.discard('p-2');
  await net.flush();
  assert.deepEqual(await discarded, ['job p-2 discarded', true]);
  const changes = net.calls.filter((c) => c.method !== 'GET');
  assert.deepEqual(changes.map((c) => [c.method, c.url, c.body]), [
    ['POST', '/api/pools/jobs/dead/p%2F1/replay', '{}'],
    ['DELETE', '/api/pools/jobs/dead/p-2', undefined]]);
  assert.deepEqual(changes[0].headers, { 'Content-Type': 'application/json', Authorization: 'Bearer t' });
  assert.deepEqual(changes[1].headers, { Authorization: 'Bearer t' });
  clock.advance(MIN_GAP_MS);
  assert.ok(net.calls.filter((c) => c.method === 'GET').length >= 2, 'the list is read again after a change');
});

test('J5: a replay refused because the backlog is full says so', async () => {
  const { f, net } = feed((url, init) => (init.method === 'POST'
    ? [429, { type: 'rejected', job: 'p-1', reason: 'BACKLOG_FULL', message: 'the backlog holds 0 of 0' }]
    : [200, page([])]));
  f.show('jobs');
  await net.flush();
  const answer = f.replay('p-1');
  await net.flush();
  assert.deepEqual(await answer, ['job p-1 not replayed: rejected BACKLOG_FULL (the backlog holds 0 of 0)', false]);
});
