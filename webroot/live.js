// Shepherd live view. Plain browser JavaScript, no libraries: one WebSocket per selected pool
// (/api/pools/<name>/events) sends a snapshot on connect and then every event the pool publishes;
// the page reconnects by itself when the connection drops (for instance a server restart).
(() => {
  'use strict';

  const CHART_SECONDS = 180;
  const MIN_CHART_SECONDS = 60;
  const SERIES = ['completed', 'failed', 'interrupted', 'rejected'];
  const COLORS = { completed: '#3fbf7f', failed: '#ff6b81', interrupted: '#f5a33b', rejected: '#b58cff' };
  const LOG_LIMIT = 250;
  const RECONNECT_MS = [250, 500, 1000, 2000];

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const state = {
    pool: null,
    pools: [],
    ws: null,
    attempt: 0,
    connections: 0,
    reconnectTimer: null,
    snapshot: null,
    clockSkew: 0,
    lastExit: {},          // slot id -> {exit, cause, at}
    tiles: new Map(),      // slot id -> {li, parts}
    buckets: new Map(),    // epoch second -> {completed, failed, interrupted, rejected}
    lastCounters: null,
    lastAt: 0,
  };

  // ---- time and formatting -------------------------------------------------------------------

  const serverNow = () => Date.now() + state.clockSkew;
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  const clock = (ms) => {
    const d = new Date(ms);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  };
  const human = (ms) => (ms >= 60000 ? `${(ms / 60000).toFixed(ms % 60000 ? 1 : 0)} min`
    : ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s` : `${ms} ms`);
  const rate = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2).replace(/0$/, ''));

  // ---- pools and connection ------------------------------------------------------------------

  async function loadPools() {
    const res = await fetch('/api/pools', { cache: 'no-store' });
    if (!res.ok) throw new Error(`GET /api/pools: ${res.status}`);
    const body = await res.json();
    state.pools = body.pools.map((p) => p.name);
    const select = $('pool');
    const current = select.value;
    select.replaceChildren(...state.pools.map((name) => {
      const o = el('option', null, name);
      o.value = name;
      return o;
    }));
    const wanted = new URLSearchParams(location.hash.slice(1)).get('pool') || current;
    const pick = state.pools.includes(wanted) ? wanted : state.pools[0];
    if (pick) select.value = pick;
    return pick;
  }

  function setConnection(kind, text) {
    const c = $('connection');
    c.dataset.state = kind;
    c.querySelector('.text').textContent = text;
  }

  function connect() {
    clearTimeout(state.reconnectTimer);
    if (!state.pool) {
      scheduleReconnect();
      return;
    }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/pools/${encodeURIComponent(state.pool)}/events`);
    state.ws = ws;
    setConnection('connecting', state.attempt ? `Reconnecting… (attempt ${state.attempt + 1})` : 'Connecting…');
    ws.onopen = () => {
      if (ws !== state.ws) return;
      state.connections += 1;
      $('connection').dataset.connections = String(state.connections);
      setConnection('open', `Live · ${state.pool}`);
      if (state.attempt > 0) log(Date.now(), 'connection', 'connection', `reconnected to ${location.host}`);
      state.attempt = 0;
    };
    ws.onmessage = (m) => {
      if (ws !== state.ws) return;
      let event;
      try {
        event = JSON.parse(m.data);
      } catch (e) {
        return;
      }
      handle(event);
    };
    ws.onclose = () => {
      if (ws !== state.ws) return;
      if (state.attempt === 0) log(Date.now(), 'connection', 'connection', 'connection lost; reconnecting');
      setConnection('closed', 'Disconnected · reconnecting');
      scheduleReconnect();
    };
  }

  function scheduleReconnect() {
    const delay = RECONNECT_MS[Math.min(state.attempt, RECONNECT_MS.length - 1)];
    state.attempt += 1;
    state.reconnectTimer = setTimeout(async () => {
      try {
        const pick = await loadPools();
        if (pick !== state.pool) switchPool(pick, false);
      } catch (e) {
        // the server is still away: try the socket anyway, it fails fast
      }
      connect();
    }, delay);
  }

  function switchPool(name, reconnect = true) {
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    state.pool = name;
    state.snapshot = null;
    state.lastExit = {};
    state.buckets.clear();
    state.lastCounters = null;
    state.tiles.clear();
    $('tiles').replaceChildren();
    $('log').replaceChildren();
    history.replaceState(null, '', `#pool=${encodeURIComponent(name)}`);
    drawChart();
    if (reconnect) {
      state.attempt = 0;
      connect();
    }
  }

  // ---- events --------------------------------------------------------------------------------

  function handle(event) {
    if (typeof event.at === 'number') state.clockSkew = event.at - Date.now();
    switch (event.type) {
      case 'snapshot':
        state.lastCounters = null;
        applySnapshot(event.snapshot, event.at);
        break;
      case 'stats':
        applySnapshot(event.snapshot, event.at);
        break;
      case 'phase':
      case 'retired':
        onPhase(event);
        break;
      case 'restart':
        onRestart(event);
        break;
      case 'budget':
        log(event.at, 'budget', 'budget',
          `restart budget refused replacing ${event.worker}: ${event.restartsInWindow} in window`
          + ` + ${event.replacementsRequested} requested > ${event.maximumRestarts}; ${event.reaction}`);
        break;
      case 'state':
        if (state.snapshot) state.snapshot.state = event.state;
        renderPoolState();
        log(event.at, 'state', 'state', `pool ${event.pool} is ${event.state}`);
        break;
      case 'job':
        onJob(event);
        break;
      default:
        break;
    }
  }

  function slotOf(id) {
    return state.snapshot && state.snapshot.slots.find((s) => s.id === id);
  }

  function onPhase(e) {
    const slot = slotOf(e.worker);
    if (slot) {
      slot.phase = e.phase;
      slot.incarnation = e.incarnation;
      slot.backoffUntil = e.backoffUntil;
      slot.retirement = e.retirement;
      if (e.phase !== 'ASSIGNED') {
        slot.assignments = [];
        slot.inFlight = 0;
      }
      renderTile(slot);
    }
    if (e.type === 'retired') {
      log(e.at, 'retired', 'retired', `${e.worker} retired: ${e.retirement}`);
    } else if (e.phase === 'BACKING_OFF') {
      log(e.at, 'phase', 'backoff', `${e.worker} backs off until ${clock(e.backoffUntil)}`);
    } else if (e.phase === 'IDLE' && e.incarnation > 1) {
      log(e.at, 'phase', 'up', `${e.worker} incarnation ${e.incarnation} is up`);
    }
  }

  function onRestart(e) {
    state.lastExit[e.worker] = { exit: e.exit, at: e.at };
    for (const id of e.replaced || []) {
      const slot = slotOf(id);
      if (slot) {
        slot.restarts += 1;
        renderTile(slot);
      }
      flash(id);
    }
    const cause = e.cause ? ` (${e.cause})` : '';
    const delay = e.delayMs > 0 ? ` in ${human(e.delayMs)}` : '';
    log(e.at, 'restart', 'restart', `${e.worker} stopped: ${e.exit}${cause}; replacing ${(e.replaced || []).join(', ')}${delay}`);
  }

  function onJob(e) {
    const o = e.outcome || {};
    let text;
    switch (o.type) {
      case 'rejected':
        text = `job ${o.job} rejected: ${o.reason}`;
        break;
      case 'interrupted':
        text = `job ${o.job} interrupted: ${describeReason(o.reason)} after ${o.attempts} attempt(s)`;
        break;
      case 'failed':
        text = `job ${o.job} failed on ${o.worker}: ${o.error ? o.error.message : ''}`;
        break;
      case 'cancelled':
        text = `job ${o.job} cancelled`;
        break;
      default:
        text = `job ${o.job}: ${o.type}`;
    }
    const why = o.reason ? (o.reason.kind || o.reason) : '';
    log(e.at, o.type || 'job', o.type || 'job', text, `${o.type}:${why}`);
  }

  function describeReason(r) {
    if (!r) return 'unknown';
    if (r.kind === 'WORKER_STOPPED') return `${r.worker} stopped (${r.exit})`;
    if (r.kind === 'AFFINITY_RETIRED') return `${r.worker} retired (${r.retirement})`;
    if (r.kind === 'ATTEMPTS_EXHAUSTED') return `attempts exhausted, last: ${describeReason(r.last)}`;
    return r.kind;
  }

  // ---- snapshot → tiles, gauges, counters, chart --------------------------------------------

  function applySnapshot(s, at) {
    const previous = state.snapshot;
    state.snapshot = s;
    if (previous) {
      for (const slot of s.slots) {
        const before = previous.slots.find((x) => x.id === slot.id);
        if (before && slot.incarnation > before.incarnation && !recentlyFlashed(slot.id)) flash(slot.id);
      }
    }
    renderTiles();
    renderGauges();
    renderPoolState();
    recordRates(s.counters, at);
    drawChart();
    fillWorkers();
  }

  function renderPoolState() {
    const p = $('pool-state');
    const s = state.snapshot ? state.snapshot.state : '';
    p.dataset.state = s;
    p.textContent = s || '—';
  }

  function renderTiles() {
    const ul = $('tiles');
    const ids = new Set(state.snapshot.slots.map((s) => s.id));
    for (const [id, tile] of state.tiles) {
      if (!ids.has(id)) {
        tile.li.remove();
        state.tiles.delete(id);
      }
    }
    state.snapshot.slots.forEach((slot, i) => {
      renderTile(slot);
      const li = state.tiles.get(slot.id).li;
      if (ul.children[i] !== li) ul.insertBefore(li, ul.children[i] || null);
    });
  }

  function tileFor(id) {
    let tile = state.tiles.get(id);
    if (!tile) {
      const li = el('li', 'tile');
      li.dataset.slot = id;
      const head = el('div', 'tile-head');
      const name = el('span', 'id', id);
      const phase = el('span', 'phase');
      head.append(name, phase);
      const jobs = el('div', 'jobs');
      const load = el('div', 'load');
      const loadBar = el('span');
      load.append(loadBar);
      const meta = el('div', 'meta');
      const note = el('div', 'note');
      li.append(head, jobs, load, meta, note);
      li.addEventListener('animationend', () => li.classList.remove('restarted'));
      tile = { li, parts: { phase, jobs, loadBar, meta, note } };
      state.tiles.set(id, tile);
      $('tiles').append(li);
    }
    return tile;
  }

  const PHASE_TEXT = {
    INSTALLING: 'INSTALLING', IDLE: 'IDLE', ASSIGNED: 'ASSIGNED', BACKING_OFF: 'BACKING OFF', RETIRED: 'RETIRED',
  };

  function renderTile(slot) {
    const { li, parts } = tileFor(slot.id);
    li.dataset.phase = slot.phase;
    li.dataset.incarnation = String(slot.incarnation);
    li.dataset.restarts = String(slot.restarts);
    parts.phase.textContent = PHASE_TEXT[slot.phase] || slot.phase;
    const jobs = (slot.assignments || []).map((a) => a.job);
    parts.jobs.textContent = jobs.length ? jobs.join(', ') : slot.phase === 'RETIRED' ? 'out of service' : 'no job';
    parts.jobs.classList.toggle('none', jobs.length === 0);
    parts.jobs.title = jobs.join(', ');
    const capacity = slot.capacity == null ? '?' : slot.capacity;
    const fill = slot.capacity ? Math.min(1, slot.inFlight / slot.capacity) : 0;
    parts.loadBar.style.width = `${(fill * 100).toFixed(0)}%`;
    parts.meta.replaceChildren(
      metaItem('in flight', `${slot.inFlight}/${capacity}`),
      metaItem('incarnation', slot.incarnation),
      metaItem('restarts', slot.restarts));
    let note = '';
    let reason = false;
    if (slot.phase === 'RETIRED') {
      note = `reason: ${slot.retirement || 'unknown'}`;
      reason = true;
    } else if (slot.phase === 'BACKING_OFF' && slot.backoffUntil) {
      const left = Math.max(0, slot.backoffUntil - serverNow());
      note = `restarting in ${(left / 1000).toFixed(1)} s`;
    } else if (state.lastExit[slot.id]) {
      const x = state.lastExit[slot.id];
      note = `last exit: ${x.exit} at ${clock(x.at).slice(0, 8)}`;
    }
    parts.note.textContent = note;
    parts.note.classList.toggle('reason', reason);
    li.setAttribute('aria-label', `${slot.id}: ${PHASE_TEXT[slot.phase] || slot.phase}`
      + (jobs.length ? `, running ${jobs.join(', ')}` : '')
      + `, incarnation ${slot.incarnation}, ${slot.restarts} restarts` + (note ? `, ${note}` : ''));
  }

  function metaItem(label, value) {
    const span = el('span', null, `${label} `);
    span.append(el('b', null, String(value)));
    return span;
  }

  const flashedAt = new Map();
  function recentlyFlashed(id) {
    return Date.now() - (flashedAt.get(id) || 0) < 1500;
  }

  function flash(id) {
    const tile = state.tiles.get(id);
    if (!tile) return;
    flashedAt.set(id, Date.now());
    tile.li.classList.remove('restarted');
    void tile.li.offsetWidth; // restart the animation
    tile.li.classList.add('restarted');
  }

  function renderGauges() {
    const s = state.snapshot;
    meter($('backlog'), s.backlog.length, s.backlog.capacity, `${s.backlog.length} of ${s.backlog.capacity} jobs`);
    $('backlog-text').textContent = `${s.backlog.length} / ${s.backlog.capacity}`;
    const b = s.budget;
    meter($('budget'), b.restartsInWindow, b.maxRestarts, `${b.restartsInWindow} of ${b.maxRestarts} restarts used`);
    $('budget-text').textContent = `${b.restartsInWindow} / ${b.maxRestarts}`;
    $('budget-window').textContent = b.windowMs == null ? 'restarts counted over the pool\'s lifetime'
      : `restarts in the last ${human(b.windowMs)}; ${s.counters.budgetRefusals || 0} refused so far`;
    const c = s.counters;
    const items = [['accepted', c.accepted], ['completed', c.completed], ['failed', c.failed],
      ['interrupted', c.interrupted], ['rejected', c.rejected], ['restarts', c.restarts]];
    $('counters').replaceChildren(...items.map(([k, v]) => {
      const d = el('div');
      d.dataset.counter = k;
      d.append(el('dt', null, k), el('dd', null, String(v)));
      return d;
    }));
  }

  function meter(node, value, max, text) {
    node.setAttribute('aria-valuemax', String(max));
    node.setAttribute('aria-valuenow', String(value));
    node.setAttribute('aria-valuetext', text);
    const ratio = max > 0 ? Math.min(1, value / max) : value > 0 ? 1 : 0;
    node.firstElementChild.style.width = `${(ratio * 100).toFixed(1)}%`;
    node.classList.toggle('full', ratio >= 1 && value > 0);
    node.classList.toggle('warn', ratio >= 0.7 && ratio < 1);
  }

  // ---- rates and the chart -------------------------------------------------------------------

  function recordRates(counters, at) {
    const last = state.lastCounters;
    state.lastCounters = counters;
    const lastAt = state.lastAt;
    state.lastAt = at;
    if (!last || at <= lastAt) return;
    const deltas = SERIES.map((k) => (counters[k] || 0) - (last[k] || 0));
    if (deltas.some((d) => d < 0)) return; // a restarted server: counters began again
    const second = Math.floor(at / 1000);
    const bucket = state.buckets.get(second) || { completed: 0, failed: 0, interrupted: 0, rejected: 0 };
    SERIES.forEach((k, i) => { bucket[k] += deltas[i]; });
    state.buckets.set(second, bucket);
    for (const key of state.buckets.keys()) {
      if (key < second - CHART_SECONDS - 5) state.buckets.delete(key);
    }
  }

  // The chart spans the time since its first data, at least one minute and at most three.
  function span(end) {
    const first = Math.min(...state.buckets.keys());
    const have = Number.isFinite(first) ? end - first + 1 : 0;
    return Math.max(MIN_CHART_SECONDS, Math.min(CHART_SECONDS, have));
  }

  function series(now) {
    const end = Math.floor(now / 1000) - 1; // the current second is not complete yet
    const seconds = span(end);
    const data = { seconds };
    SERIES.forEach((k) => { data[k] = []; });
    for (let t = end - seconds + 1; t <= end; t++) {
      const b = state.buckets.get(t);
      SERIES.forEach((k) => data[k].push(b ? b[k] : 0));
    }
    return data;
  }

  function niceMax(v) {
    if (v <= 1) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p) return m * p;
    return 10 * p;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  }

  function drawChart() {
    const chart = $('chart');
    const W = 800;
    const H = 200;
    const data = series(serverNow());
    const peak = Math.max(0, ...SERIES.flatMap((k) => data[k]));
    chart.dataset.seconds = String(data.seconds);
    const top = niceMax(peak);
    const x = (i) => (i / (data.seconds - 1)) * W;
    const y = (v) => H - 6 - (v / top) * (H - 22);
    const desc = chart.querySelector('desc');
    chart.replaceChildren(desc);
    for (let g = 0; g <= 4; g++) {
      const v = (top * g) / 4;
      chart.append(svg('line', { class: 'grid', x1: 0, x2: W, y1: y(v), y2: y(v) }));
    }
    for (let m = 1; m < 3; m++) {
      const gx = (m * W) / 3;
      chart.append(svg('line', { class: 'grid', x1: gx, x2: gx, y1: 0, y2: H }));
    }
    const labels = $('chart-axis').children;
    for (let m = 0; m < 3; m++) {
      const ago = Math.round((data.seconds * (3 - m)) / 3);
      labels[m].textContent = ago >= 60 && ago % 60 === 0 ? `−${ago / 60} min` : `−${ago} s`;
    }
    $('chart-span').textContent = data.seconds >= 120 ? `last ${Math.round(data.seconds / 60)} minutes`
      : `last ${data.seconds} seconds`;
    for (const k of SERIES) {
      const pts = data[k].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      if (k === 'completed') {
        chart.append(svg('polygon', { class: 'area', fill: COLORS[k], points: `0,${y(0)} ${pts} ${W},${y(0)}` }));
      }
      chart.append(svg('polyline', { class: `series s-${k}`, stroke: COLORS[k], points: pts, 'data-series': k }));
    }
    $('chart-ymax').textContent = `${top}/s`;
    chart.dataset.peak = String(peak);
    const recent = {};
    for (const k of SERIES) {
      const last5 = data[k].slice(-5);
      recent[k] = last5.reduce((a, b) => a + b, 0) / 5;
      const b = document.querySelector(`[data-rate="${k}"]`);
      if (b) b.textContent = rate(recent[k]);
    }
    desc.textContent = `Peak ${peak} per second over the last ${data.seconds} seconds. Last 5 seconds: `
      + SERIES.map((k) => `${rate(recent[k])} ${k}`).join(', ') + ' per second.';
  }

  // ---- event log -----------------------------------------------------------------------------

  // A burst of alike job events (a flood of rejections, say) folds into its newest line, so
  // restarts and retirements stay in view.
  function log(at, kindClass, kind, text, group) {
    const list = $('log');
    const top = list.firstElementChild;
    if (group && top && top.dataset.group === group && at - Number(top.dataset.at) < 3000) {
      const count = Number(top.dataset.count) + 1;
      top.dataset.count = String(count);
      top.dataset.at = String(at);
      const time = top.querySelector('time');
      time.textContent = clock(at);
      time.dateTime = new Date(at).toISOString();
      top.querySelector('.msg').textContent = `${text} (and ${count - 1} more like it)`;
      return;
    }
    const li = el('li', `k-${kindClass}`);
    li.dataset.at = String(at);
    li.dataset.count = '1';
    if (group) li.dataset.group = group;
    const time = el('time', null, clock(at));
    time.dateTime = new Date(at).toISOString();
    li.append(time, el('span', 'kind', kind), el('span', 'msg', text));
    list.prepend(li);
    while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
  }

  // ---- control panel -------------------------------------------------------------------------

  const ARGS = {
    echo: { label: 'Echo text', type: 'text', value: 'hello' },
    sleep: { label: 'Sleep (ms)', type: 'number', value: '500' },
    fail: { label: 'Failure message', type: 'text', value: 'requested failure' },
    crash: null,
    hang: null,
    exit: null,
  };

  function updateArg() {
    const spec = ARGS[$('job-kind').value];
    const input = $('job-arg');
    $('job-arg-row').hidden = !spec;
    input.disabled = !spec;
    if (spec) {
      $('job-arg-label').textContent = spec.label;
      input.type = spec.type;
      input.value = spec.value;
    }
  }

  function payload(kind, arg) {
    switch (kind) {
      case 'echo': return { echo: arg };
      case 'sleep': return { sleepMs: Number(arg), echo: `slept ${arg} ms` };
      case 'fail': return { fail: arg || 'requested failure' };
      case 'crash': return { crash: true };
      case 'hang': return { hang: true };
      case 'exit': return { exit: true };
      default: throw new Error(kind);
    }
  }

  function headers() {
    const h = { 'Content-Type': 'application/json' };
    const token = $('token').value.trim();
    if (token) h.Authorization = `Bearer ${token}`;
    return h;
  }

  function result(text, ok) {
    const r = $('control-result');
    r.textContent = text;
    r.className = `result ${ok ? 'ok' : 'err'}`;
  }

  async function post(path, body) {
    const res = await fetch(path, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
    let json = {};
    try {
      json = await res.json();
    } catch (e) {
      // not JSON
    }
    return { status: res.status, json };
  }

  async function submitJobs(ev) {
    ev.preventDefault();
    const kind = $('job-kind').value;
    const arg = $('job-arg').value;
    if (kind === 'sleep' && !(Number(arg) >= 0)) {
      result('Sleep (ms): enter a number of milliseconds', false);
      return;
    }
    const count = Math.max(1, Math.min(100, Number($('job-count').value) || 1));
    const key = $('job-key').value.trim();
    const body = { payload: payload(kind, arg) };
    if (key) body.key = key;
    const path = `/api/pools/${encodeURIComponent(state.pool)}/jobs?wait=false`;
    const answers = await Promise.all(Array.from({ length: count }, () => post(path, body).catch((e) => ({ status: 0, json: { message: String(e) } }))));
    const accepted = answers.filter((a) => a.json.type === 'accepted').map((a) => a.json.job);
    const refused = answers.filter((a) => a.json.type !== 'accepted');
    if (refused.length === 0) {
      result(`accepted ${accepted.length > 3 ? `${accepted.length} jobs` : accepted.join(', ')}`, true);
    } else {
      const first = refused[0];
      const why = first.json.reason || first.json.error || first.status;
      result(`${accepted.length} accepted, ${refused.length} refused: ${why}${first.json.message ? ` (${first.json.message})` : ''}`, false);
    }
  }

  async function rebalance(ev) {
    ev.preventDefault();
    const key = $('rebalance-key').value.trim();
    const worker = $('rebalance-worker').value;
    if (!key) {
      result('Key: enter the key to move', false);
      return;
    }
    const { status, json } = await post(`/api/pools/${encodeURIComponent(state.pool)}/rebalance`, { key, worker });
    if (status === 200) {
      result(`key ${json.key} now goes to ${json.worker}`, true);
      log(Date.now(), 'phase', 'rebalance', `key ${json.key} bound to ${json.worker}`);
    } else {
      result(`${json.error || status}: ${json.message || ''}`, false);
    }
  }

  function fillWorkers() {
    const select = $('rebalance-worker');
    const ids = state.snapshot.slots.map((s) => s.id);
    const have = Array.from(select.options).map((o) => o.value);
    if (have.join() === ids.join()) return;
    const current = select.value;
    select.replaceChildren(...ids.map((id) => {
      const o = el('option', null, id);
      o.value = id;
      return o;
    }));
    if (ids.includes(current)) select.value = current;
  }

  // ---- start ---------------------------------------------------------------------------------

  function start() {
    $('job-kind').addEventListener('change', updateArg);
    $('submit-form').addEventListener('submit', (e) => submitJobs(e).catch((x) => result(String(x), false)));
    $('rebalance-form').addEventListener('submit', (e) => rebalance(e).catch((x) => result(String(x), false)));
    $('pool').addEventListener('change', (e) => switchPool(e.target.value));
    window.addEventListener('hashchange', () => {
      const wanted = new URLSearchParams(location.hash.slice(1)).get('pool');
      if (wanted && wanted !== state.pool && state.pools.includes(wanted)) {
        $('pool').value = wanted;
        switchPool(wanted);
      }
    });
    $('log-clear').addEventListener('click', () => $('log').replaceChildren());
    const token = $('token');
    token.value = sessionStorage.getItem('shepherd.token') || '';
    token.addEventListener('change', () => sessionStorage.setItem('shepherd.token', token.value.trim()));
    updateArg();
    drawChart();
    setInterval(() => {
      drawChart();
      if (state.snapshot) {
        state.snapshot.slots.filter((s) => s.phase === 'BACKING_OFF').forEach(renderTile);
      }
    }, 500);
    loadPools()
      .then((pick) => {
        if (pick) switchPool(pick);
        else scheduleReconnect();
      })
      .catch(() => scheduleReconnect());
  }

  start();
})();
