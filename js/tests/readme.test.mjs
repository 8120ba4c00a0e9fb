// readme.test.mjs -- the repository README's JavaScript example runs as
// written and prints what its comments say (section "JavaScript (npm)").
// The block is written into js/dist/ (inside the package, so 'libastar'
// resolves to this package by its own name) and run by a child node.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = path.join(JS, '..', 'README.md');

test('README: the JavaScript (npm) example prints what its comments say', () => {
  const text = fs.readFileSync(README, 'utf8');
  const section = text.split('\n## JavaScript (npm)\n')[1];
  assert.ok(section, 'README.md has a "## JavaScript (npm)" section');
  const block = /```js\n([\s\S]*?)```/.exec(section.split('\n## ')[0]);
  assert.ok(block, 'the section has a ```js block');
  const file = path.join(JS, 'dist', 'readme-example.mjs');
  fs.writeFileSync(file, block[1]);
  try {
    const lines = execFileSync(process.execPath, [file], { encoding: 'utf8' }).trim().split('\n');
    // What each console.log prints is the comment after it (on its line
    // or, for a long value, the next); "..." in a comment stands for names.
    const src = block[1].split('\n');
    const expected = [];
    src.forEach((l, i) => {
      if (!l.startsWith('console.log(')) return;
      const c = (l.split('//')[1] ?? src[i + 1].split('//')[1]).trim();
      expected.push(c);
    });
    assert.equal(lines.length, expected.length, lines.join('\n'));
    expected.forEach((c, i) => {
      if (c.includes('...')) {
        const re = new RegExp('^' + c.split('...').map((p) => p.trim().replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('.*') + '$');
        assert.match(lines[i], re);
      } else {
        assert.equal(lines[i], c);
      }
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
});
