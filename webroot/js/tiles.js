// The slot tiles: one per slot, coloured by phase, grouped by host when the pool has hosts.
import { $, el } from './dom.js';
import { nameParts } from './reasons.js';
import { groupStatus, hostGroups, tileView } from './slotview.js';

const tiles = new Map(); // slot id -> {li, parts, shown (the view last put on the page), cue}
const groups = new Map(); // group key -> {section, head, title, status, list}

/** Puts the model's slots on the page at server time `now`, touching only what changed. */
export function renderTiles(model, now) {
  const container = $('tiles');
  const wanted = hostGroups(model.snapshot);
  const keys = new Set(wanted.map((g) => g.key));
  for (const [key, g] of groups) {
    if (!keys.has(key)) {
      g.section.remove();
      groups.delete(key);
    }
  }
  const ids = new Set(wanted.flatMap((g) => g.slots.map((s) => s.id)));
  for (const [id, tile] of tiles) {
    if (!ids.has(id)) {
      tile.li.remove();
      tiles.delete(id);
    }
  }
  wanted.forEach((group, gi) => {
    const g = groupFor(group);
    if (container.children[gi] !== g.section) container.insertBefore(g.section, container.children[gi] || null);
    renderGroup(g, group);
    group.slots.forEach((slot, i) => {
      const tile = tileFor(slot.id, model);
      renderTile(tile, tileView(slot, model, now));
      const cue = model.cues[slot.id];
      if (cue && cue.count > tile.cue) {
        tile.cue = cue.count;
        flash(tile.li);
      }
      if (g.list.children[i] !== tile.li) g.list.insertBefore(tile.li, g.list.children[i] || null);
    });
  });
  $('legend-lost').hidden = !wanted.some((g) => g.host);
}

/** Forgets every tile (another pool is shown). */
export function clearTiles() {
  tiles.clear();
  groups.clear();
  $('tiles').replaceChildren();
}

function groupFor(group) {
  let g = groups.get(group.key);
  if (!g) {
    const section = el('section', 'host-group');
    const head = el('header', 'host-head');
    const title = el('h3', 'host-title');
    const status = el('span', 'host-status');
    head.append(title, status);
    const list = el('ul', 'tiles');
    section.append(head, list);
    g = { section, head, title, status, list };
    groups.set(group.key, g);
  }
  return g;
}

function renderGroup(g, group) {
  g.head.hidden = !group.title;
  g.section.dataset.host = group.host ? group.host.id : '';
  g.section.dataset.lost = String(group.lost);
  g.title.textContent = group.title || '';
  g.status.textContent = group.title ? groupStatus(group) : '';
  g.list.setAttribute('aria-label', !group.title ? 'Slots of the pool'
    : group.host ? `Slots on host ${group.host.id}${group.lost ? ', lost' : ''}` : 'Local slots');
}

function tileFor(id, model) {
  let tile = tiles.get(id);
  if (!tile) {
    const li = el('li', 'tile');
    li.dataset.slot = id;
    const head = el('div', 'tile-head');
    const phase = el('span', 'phase');
    head.append(el('span', 'id', id), phase);
    const jobs = el('div', 'jobs');
    const load = el('div', 'load');
    const loadBar = el('span');
    load.append(loadBar);
    const meta = el('div', 'meta');
    const note = el('div', 'note');
    const restart = el('button', 'restart', 'Restart');
    restart.type = 'button';
    restart.dataset.slot = id;
    restart.setAttribute('aria-label', `Restart ${id}: put it back in service with a new incarnation`);
    restart.hidden = true;
    li.append(head, jobs, load, meta, note, restart);
    li.addEventListener('animationend', () => li.classList.remove('restarted'));
    // Cues raised before the tile existed belong to a past it did not show.
    tile = { li, parts: { phase, jobs, loadBar, meta, note, restart }, shown: '', cue: (model.cues[id] || {}).count || 0 };
    tiles.set(id, tile);
  }
  return tile;
}

function renderTile(tile, view) {
  const key = JSON.stringify(view);
  if (key === tile.shown) return;
  tile.shown = key;
  const { li, parts } = tile;
  li.dataset.phase = view.phase;
  li.dataset.incarnation = String(view.incarnation);
  li.dataset.restarts = String(view.restarts);
  parts.phase.textContent = view.phaseText;
  parts.jobs.textContent = view.jobsText;
  parts.jobs.classList.toggle('none', view.noJob);
  parts.jobs.title = view.jobs.join(', ');
  parts.loadBar.style.width = `${(view.fill * 100).toFixed(0)}%`;
  parts.meta.replaceChildren(...view.meta.map(([label, value]) => {
    const span = el('span', null, `${label} `);
    span.append(el('b', null, String(value)));
    return span;
  }));
  parts.note.classList.toggle('reason', Boolean(view.reason));
  if (view.reason) {
    const name = el('span', 'reason-name');
    nameParts(view.reason.name).forEach((part, i) => {
      if (i > 0) name.append(document.createElement('wbr'));
      name.append(part);
    });
    const line = el('span', 'reason-line', 'reason: ');
    line.append(name);
    parts.note.replaceChildren(line);
    if (view.reason.words) parts.note.append(el('span', 'reason-words', view.reason.words));
  } else {
    parts.note.textContent = view.note;
  }
  parts.restart.hidden = !view.restartable;
  parts.restart.disabled = false;
  li.setAttribute('aria-label', view.label);
}

function flash(li) {
  li.classList.remove('restarted');
  void li.offsetWidth; // restart the animation
  li.classList.add('restarted');
}
