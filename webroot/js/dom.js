// The two DOM helpers every view module uses.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A new element with an optional class and text. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
