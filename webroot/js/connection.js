// The connection to a pool's event stream: a plain WebSocket to /api/pools/<name>/events that
// reconnects by itself when it drops (a server restart, say), a little later each time.

/** Delays before each reconnection attempt; the last one repeats. */
export const RECONNECT_MS = [250, 500, 1000, 2000];

export function reconnectDelay(attempt) {
  return RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)];
}

/** The stream's URL for a page served from `location`. */
export function eventsUrl(location, pool) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/api/pools/${encodeURIComponent(pool)}/events`;
}

/**
 * A connection that follows one pool at a time. Callbacks: `onStatus(state, text)` with state
 * connecting | open | closed; `onOpen(pool, reconnected)`; `onFrame(frame)` with each parsed JSON
 * frame; `onLost()` when an open stream drops; `beforeRetry(pool)` (async) before each attempt,
 * answering the pool to try (the pool may be gone after a server restart). The socket and timers
 * are parameters so that tests can stand in for them.
 */
export function createConnection({ urlFor, onStatus, onOpen, onFrame, onLost, beforeRetry,
  WebSocketImpl = globalThis.WebSocket, setTimer = globalThis.setTimeout, clearTimer = globalThis.clearTimeout }) {
  let pool = null;
  let ws = null;
  let attempt = 0;
  let timer = null;

  function connect() {
    clearTimer(timer);
    if (!pool) {
      retry();
      return;
    }
    const socket = new WebSocketImpl(urlFor(pool));
    ws = socket;
    onStatus('connecting', attempt ? `Reconnecting… (attempt ${attempt + 1})` : 'Connecting…');
    socket.onopen = () => {
      if (socket !== ws) return;
      const reconnected = attempt > 0;
      attempt = 0;
      onStatus('open', `Live · ${pool}`);
      onOpen(pool, reconnected);
    };
    socket.onmessage = (m) => {
      if (socket !== ws) return;
      let frame;
      try {
        frame = JSON.parse(m.data);
      } catch (e) {
        return; // not JSON: not ours to show
      }
      onFrame(frame);
    };
    socket.onclose = () => {
      if (socket !== ws) return;
      if (attempt === 0) onLost();
      onStatus('closed', 'Disconnected · reconnecting');
      retry();
    };
  }

  function retry() {
    const delay = reconnectDelay(attempt);
    attempt += 1;
    timer = setTimer(async () => {
      try {
        pool = (await beforeRetry(pool)) ?? pool;
      } catch (e) {
        // the server is still away: try the socket anyway, it fails fast
      }
      connect();
    }, delay);
  }

  function drop() {
    clearTimer(timer);
    if (ws) {
      const old = ws;
      ws = null;
      old.close();
    }
  }

  return {
    /** Follows `name` from now on, from a fresh connection. */
    open(name) {
      drop();
      pool = name;
      attempt = 0;
      connect();
    },
    /** Keeps trying until a pool is known (none was found at start). */
    retry() {
      retry();
    },
    get pool() {
      return pool;
    },
  };
}
