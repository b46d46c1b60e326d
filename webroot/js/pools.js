// The pool picker: the server's pools in the selector, and which one the page shows
// (`#pool=<name>` in the URL, else the one selected, else the first).
import { $, el } from './dom.js';

let names = [];

/** The pool `#pool=<name>` asks for, or null. */
export function poolInHash() {
  return new URLSearchParams(location.hash.slice(1)).get('pool');
}

export function knownPool(name) {
  return names.includes(name);
}

/** Fetches the pools, fills the selector, and answers the pool to show (undefined: none). */
export async function loadPools() {
  const res = await fetch('/api/pools', { cache: 'no-store' });
  if (!res.ok) throw new Error(`GET /api/pools: ${res.status}`);
  const body = await res.json();
  names = body.pools.map((p) => p.name);
  const select = $('pool');
  const current = select.value;
  select.replaceChildren(...names.map((name) => {
    const o = el('option', null, name);
    o.value = name;
    return o;
  }));
  const wanted = poolInHash() || current;
  const pick = names.includes(wanted) ? wanted : names[0];
  if (pick) select.value = pick;
  return pick;
}

/** Shows `name` as the selected pool, in the selector and in the URL. */
export function showPool(name) {
  $('pool').value = name;
  history.replaceState(null, '', `#pool=${encodeURIComponent(name)}`);
}
