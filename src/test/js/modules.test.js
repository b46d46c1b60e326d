// Every module of the page loads, and every import names a file that exists (a browser does not
// guess extensions), so a typo cannot reach the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const dir = new URL('../../../webroot/js/', import.meta.url);
const modules = readdirSync(dir).filter((f) => f.endsWith('.js'));

test('every import of every module names an existing .js file of the page', () => {
  assert.ok(modules.includes('main.js') && modules.includes('model.js'));
  for (const file of modules) {
    const source = readFileSync(new URL(file, dir), 'utf8');
    for (const [, spec] of source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)) {
      assert.match(spec, /^\.\/[\w-]+\.js$/, `${file} imports ${spec}`);
      assert.ok(existsSync(new URL(spec, dir)), `${file} imports ${spec}, which exists`);
    }
  }
});

test('every module but the entry point loads without a page', async () => {
  for (const file of modules.filter((f) => f !== 'main.js')) {
    await import(new URL(file, dir));
  }
});
