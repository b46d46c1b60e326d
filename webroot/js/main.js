// Shepherd live view. Plain browser modules, no libraries: one WebSocket per selected pool
// (/api/pools/<name>/events) sends a snapshot on connect and then every event the pool
// publishes; the model folds them (model.js) and the view modules put the model on the page.
// The dead-letter panel reads its list over HTTP (deadfeed.js), as the events say it changed.
import { $ } from './dom.js';
import { drawChart } from './chart.js';
import { createConnection, eventsUrl } from './connection.js';
import { fillWorkers, headers, startControls } from './controls.js';
import { createDeadFeed } from './deadfeed.js';
import { clearDeadPanel, renderDeadCount, renderDeadError, renderDeadList, startDeadPanel } from './deadpanel.js';
import { clearLogView, renderLog } from './eventlog.js';
import { renderFlow } from './flowview.js';
import { renderGauges } from './gauges.js';
import { renderHa } from './haheader.js';
import { clearLog, emptyModel, note, reduce } from './model.js';
import { knownPool, loadPools, poolInHash, showPool } from './pools.js';
import { clearTiles, renderTiles } from './tiles.js';

/** How often the chart moves on and BACKING_OFF countdowns tick without any frame. */
const TICK_MS = 500;

let model = emptyModel();
let shown = {}; // the parts of the model last put on the page
let clockSkew = 0; // server time minus this browser's time
let connections = 0;

const serverNow = () => Date.now() + clockSkew;

function render() {
  const now = serverNow();
  renderTiles(model, now);
  if (model.snapshot !== shown.snapshot) {
    renderGauges(model.snapshot);
    renderDeadCount(model.snapshot);
    fillWorkers(model.snapshot);
  }
  if (model.rates.buckets !== shown.buckets) drawChart(model.rates.buckets, now);
  if (model.log !== shown.log) renderLog(model.log);
  renderHa(model, now);
  renderFlow(model.snapshot, now);
  shown = { snapshot: model.snapshot, buckets: model.rates.buckets, log: model.log };
}

function addNote(kindClass, kind, text) {
  model = note(model, serverNow(), kindClass, kind, text);
  render();
}

/** The dead letters of the pool shown (J5): read on connect, and again when they change. */
const deadLetters = createDeadFeed({ onList: renderDeadList, onError: renderDeadError, headers });

/** Shows another pool: a fresh model, and (unless the caller reconnects itself) a fresh stream. */
function switchPool(name, reconnect = true) {
  model = emptyModel(name);
  shown = {};
  clearTiles();
  clearLogView();
  clearDeadPanel();
  showPool(name);
  render();
  deadLetters.show(name);
  if (reconnect) connection.open(name);
}

/** Reads the dead letters again when a frame says they changed, or counts them otherwise. */
function followDeadLetters(frame) {
  if (!frame || typeof frame !== 'object' || frame.pool !== deadLetters.pool) return;
  if (frame.type === 'deadLettered' || frame.type === 'deadLetterRemoved') deadLetters.refresh();
  if ((frame.type === 'snapshot' || frame.type === 'stats') && frame.snapshot) deadLetters.sawCount(frame.snapshot.deadLetters);
}

const connection = createConnection({
  urlFor: (pool) => eventsUrl(location, pool),
  onStatus: (state, text) => {
    const c = $('connection');
    c.dataset.state = state;
    c.querySelector('.text').textContent = text;
  },
  onOpen: (pool, reconnected) => {
    connections += 1;
    $('connection').dataset.connections = String(connections);
    if (reconnected) {
      addNote('connection', 'connection', `reconnected to ${location.host}`);
      deadLetters.refresh();
    }
  },
  onFrame: (frame) => {
    if (frame && typeof frame.at === 'number') clockSkew = frame.at - Date.now();
    model = reduce(model, frame);
    render();
    followDeadLetters(frame);
  },
  onLost: () => addNote('connection', 'connection', 'connection lost; reconnecting'),
  beforeRetry: async (pool) => {
    const pick = await loadPools();
    if (pick && pick !== pool) switchPool(pick, false);
    return pick;
  },
});

function start() {
  startControls({ pool: () => connection.pool, onNote: addNote });
  startDeadPanel({ replay: (job) => deadLetters.replay(job), discard: (job) => deadLetters.discard(job),
    refresh: () => deadLetters.refresh() });
  $('pool').addEventListener('change', (e) => switchPool(e.target.value));
  window.addEventListener('hashchange', () => {
    const wanted = poolInHash();
    if (wanted && wanted !== connection.pool && knownPool(wanted)) switchPool(wanted);
  });
  $('log-clear').addEventListener('click', () => {
    model = clearLog(model);
    render();
  });
  drawChart(model.rates.buckets, serverNow());
  setInterval(() => {
    drawChart(model.rates.buckets, serverNow());
    renderTiles(model, serverNow());
    renderHa(model, serverNow());
  }, TICK_MS);
  loadPools()
    .then((pick) => (pick ? switchPool(pick) : connection.retry()))
    .catch(() => connection.retry());
}

start();
