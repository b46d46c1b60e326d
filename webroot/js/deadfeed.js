// The dead-letter list of the pool shown, fetched from GET /api/pools/<name>/dead (J5): on demand,
// when an event says the set changed, and when a snapshot's count disagrees with the list; at
// most one request at a time and one every `minGapMs`, so a burst of dead letters costs a
// request, not one per event. Replay and discard go to the pool's routes with the page's
// headers (same origin; the bearer token when one is set). The network and timers are
// parameters so that tests stand in for them.
import { deadPath, deadList, discardResult, listError, listPath, replayResult } from './deadletters.js';

export const MIN_GAP_MS = 1000;

/**
 * A feed. `onList(list)` gets each list read ({size, evicted, rows}, see deadList; null when
 * another pool is shown), `onError(text)` why one could not be read; `headers()` the headers of
 * a request that changes the pool (Content-Type and Authorization).
 */
export function createDeadFeed({ onList, onError, headers = () => ({}), fetchImpl = (...a) => globalThis.fetch(...a),
  setTimer = (...a) => globalThis.setTimeout(...a), clearTimer = (t) => globalThis.clearTimeout(t),
  now = () => Date.now(), minGapMs = MIN_GAP_MS }) {
  let pool = null;
  let inFlight = false;
  let again = false;
  let timer = null;
  let lastAt = -Infinity;
  let size = null;

  function refresh() {
    if (!pool) return;
    if (inFlight) {
      again = true;
      return;
    }
    if (timer !== null) return;
    const wait = lastAt + minGapMs - now();
    if (wait > 0) {
      timer = setTimer(() => {
        timer = null;
        refresh();
      }, wait);
      return;
    }
    load();
  }

  async function load() {
    const asked = pool;
    inFlight = true;
    lastAt = now();
    let status = 0;
    let json = {};
    try {
      const res = await fetchImpl(listPath(asked), { cache: 'no-store', headers: readHeaders() });
      status = res.status;
      json = await body(res);
    } catch (e) {
      json = { message: String(e && e.message ? e.message : e) };
    }
    inFlight = false;
    if (asked !== pool) {
      again = false;
      refresh();
      return;
    }
    const list = status === 200 ? deadList(json) : null;
    if (list) {
      size = list.size;
      onList(list);
    } else {
      onError(status === 200 ? 'dead letters: the server answered a list of another shape' : listError(status, json));
    }
    if (again) {
      again = false;
      refresh();
    }
  }

  function readHeaders() {
    const h = { ...headers() };
    delete h['Content-Type'];
    return h;
  }

  async function act(method, path, body0) {
    try {
      const init = { method, headers: method === 'DELETE' ? readHeaders() : headers() };
      if (body0 !== undefined) init.body = body0;
      const res = await fetchImpl(path, init);
      return { status: res.status, json: await body(res) };
    } catch (e) {
      return { status: 0, json: { message: String(e && e.message ? e.message : e) } };
    }
  }

  return {
    /** Follows `name` from now on (null: none), with a fresh list. */
    show(name) {
      pool = name;
      size = null;
      again = false;
      lastAt = -Infinity;
      if (timer !== null) clearTimer(timer);
      timer = null;
      onList(null);
      refresh();
    },
    refresh,
    /** A snapshot's dead-letter count: a list that counts otherwise is read again. */
    sawCount(count) {
      if (typeof count === 'number' && size !== null && count !== size) refresh();
    },
    /** POST …/dead/<job>/replay; answers [text, ok] and reads the list again. */
    async replay(job) {
      const { status, json } = await act('POST', deadPath(pool, job, 'replay'), '{}');
      refresh();
      return replayResult(job, status, json);
    },
    /** DELETE …/dead/<job>; answers [text, ok] and reads the list again. */
    async discard(job) {
      const { status, json } = await act('DELETE', deadPath(pool, job));
      refresh();
      return discardResult(job, status, json);
    },
    get pool() {
      return pool;
    },
  };
}

async function body(res) {
  try {
    const json = await res.json();
    return json && typeof json === 'object' ? json : {};
  } catch (e) {
    return {};
  }
}
