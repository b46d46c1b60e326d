// The event log on the page: the model's lines, newest first, each with its time.
import { $, el } from './dom.js';
import { clock } from './format.js';

const shown = new Map(); // line id -> {li, line}

/** Puts the model's log lines on the page, touching only lines that are new or changed. */
export function renderLog(log) {
  const list = $('log');
  const ids = new Set(log.lines.map((l) => l.id));
  for (const [id, entry] of shown) {
    if (!ids.has(id)) {
      entry.li.remove();
      shown.delete(id);
    }
  }
  log.lines.forEach((line, i) => {
    let entry = shown.get(line.id);
    if (!entry) {
      const li = el('li', `k-${line.kindClass}`);
      li.append(el('time'), el('span', 'kind', line.kind), el('span', 'msg'));
      entry = { li, line: null };
      shown.set(line.id, entry);
    }
    if (entry.line !== line) {
      entry.line = line;
      entry.li.className = `k-${line.kindClass}`;
      const [time, , msg] = entry.li.children;
      time.textContent = clock(line.at);
      time.dateTime = new Date(line.at).toISOString();
      msg.textContent = line.text;
      entry.li.dataset.at = String(line.at);
      entry.li.dataset.count = String(line.count);
    }
    if (list.children[i] !== entry.li) list.insertBefore(entry.li, list.children[i] || null);
  });
}

/** Empties the log on the page (another pool is shown). */
export function clearLogView() {
  shown.clear();
  $('log').replaceChildren();
}
