// What the page's stylesheet and markup promise: reason names never break mid-word, and
// nothing is loaded from elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../../../webroot/live.css', import.meta.url), 'utf8');
const html = readFileSync(new URL('../../../webroot/index.html', import.meta.url), 'utf8');

function rule(selector) {
  const at = css.indexOf(`${selector} {`);
  assert.ok(at >= 0, `a rule for ${selector}`);
  return css.slice(at, css.indexOf('}', at));
}

test('no text on the page is broken anywhere: reason names keep their words whole', () => {
  assert.doesNotMatch(css, /break-all/);
  assert.doesNotMatch(rule('.tile'), /overflow-wrap:\s*anywhere/);
  assert.match(rule('.tile .reason-name'), /overflow-wrap:\s*normal/);
  assert.match(rule('.tile .reason-name'), /word-break:\s*normal/);
});

test('the page is one module from its own server and loads nothing from elsewhere', () => {
  assert.match(html, /<script type="module" src="js\/main\.js"><\/script>/);
  assert.doesNotMatch(html + css, /(src|href)="(https?:)?\/\//);
  assert.doesNotMatch(css, /url\(\s*['"]?(https?:)?\/\//);
  assert.doesNotMatch(css, /@import/);
});
