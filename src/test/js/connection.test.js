// The self-reconnecting stream, with a stand-in WebSocket and timers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECONNECT_MS, createConnection, eventsUrl, reconnectDelay } from '../../../webroot/js/connection.js';

function harness({ pools = ['jobs'] } = {}) {
  const sockets = [];
  const timers = [];
  const seen = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.closed = false;
      sockets.push(this);
    }
    close() { this.closed = true; }
  }
  const conn = createConnection({
    urlFor: (pool) => `ws://test/api/pools/${pool}/events`,
    onStatus: (state, text) => seen.push(['status', state, text]),
    onOpen: (pool, again) => seen.push(['open', pool, again]),
    onFrame: (f) => seen.push(['frame', f]),
    onLost: () => seen.push(['lost']),
    beforeRetry: async (pool) => { seen.push(['retry', pool]); return pools[0]; },
    WebSocketImpl: FakeSocket,
    setTimer: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimer: () => {},
  });
  const fire = async () => { const t = timers.shift(); await t.fn(); return t.ms; };
  return { conn, sockets, timers, seen, fire };
}

test('frames are parsed and passed on; what is not JSON is dropped', () => {
  const h = harness();
  h.conn.open('jobs');
  const ws = h.sockets[0];
  assert.equal(ws.url, 'ws://test/api/pools/jobs/events');
  ws.onopen();
  ws.onmessage({ data: '{"type":"stats","at":1}' });
  ws.onmessage({ data: 'not json' });
  assert.deepEqual(h.seen, [['status', 'connecting', 'Connecting…'], ['status', 'open', 'Live · jobs'],
    ['open', 'jobs', false], ['frame', { type: 'stats', at: 1 }]]);
});

test('a dropped stream is reported once and retried later each time until it opens again', async () => {
  const h = harness();
  h.conn.open('jobs');
  h.sockets[0].onopen();
  h.sockets[0].onclose();
  const delays = [];
  for (let i = 1; i <= 5; i++) {
    delays.push(await h.fire());
    h.sockets[i].onclose(); // the server is still away
  }
  assert.deepEqual(delays, [250, 500, 1000, 2000, 2000]);
  assert.equal(h.seen.filter(([k]) => k === 'lost').length, 1);
  assert.deepEqual(h.seen.filter(([k]) => k === 'status').at(-2), ['status', 'connecting', 'Reconnecting… (attempt 6)']);
  await h.fire();
  h.sockets[6].onopen();
  assert.deepEqual(h.seen.at(-1), ['open', 'jobs', true]);
  h.sockets[6].onclose();
  assert.equal(h.timers[0].ms, 250, 'after an open the delays start again');
});

test('switching pools closes the old socket, whose late events are ignored', () => {
  const h = harness();
  h.conn.open('jobs');
  const old = h.sockets[0];
  h.conn.open('other');
  assert.equal(old.closed, true);
  const before = h.seen.length;
  old.onmessage({ data: '{"type":"stats"}' });
  old.onclose();
  assert.equal(h.seen.length, before);
  assert.equal(h.conn.pool, 'other');
});

test('a retry follows the pool the server now has', async () => {
  const h = harness({ pools: ['renamed'] });
  h.conn.open('jobs');
  h.sockets[0].onclose();
  await h.fire();
  assert.equal(h.sockets[1].url, 'ws://test/api/pools/renamed/events');
});

test('the stream URL follows the page\'s scheme and escapes the pool name', () => {
  assert.equal(eventsUrl({ protocol: 'http:', host: 'h:8080' }, 'a b'), 'ws://h:8080/api/pools/a%20b/events');
  assert.equal(eventsUrl({ protocol: 'https:', host: 'h' }, 'jobs'), 'wss://h/api/pools/jobs/events');
  assert.equal(reconnectDelay(99), RECONNECT_MS.at(-1));
});
