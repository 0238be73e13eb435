/* global URL, console, process */
// Compares the TS nameprep (built dist/) with Python's encodings.idna.nameprep for every code point.
// Usage: npm run build && node scripts/check-nameprep.mjs   (needs python3)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nameprep } from '../dist/internal.js';

const py = spawnSync('python3', [fileURLToPath(new URL('./check-nameprep.py', import.meta.url))], { maxBuffer: 1 << 30, encoding: 'utf8' });
if (py.status !== 0) throw new Error(py.stderr);
const changed = new Map();
for (const line of py.stdout.trim().split('\n')) {
  const { cp, out } = JSON.parse(line);
  changed.set(String.fromCodePoint(...cp), out);
}
let bad = 0;
const check = (s, expected) => {
  let got;
  try { got = nameprep(s); } catch { got = null; }
  if (got !== expected) {
    if (bad++ < 20) console.log('differs', [...s].map((c) => c.codePointAt(0).toString(16)), JSON.stringify(expected), JSON.stringify(got));
  }
};
for (let cp = 0; cp < 0x110000; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const s = String.fromCodePoint(cp);
  check(s, changed.has(s) ? changed.get(s) : s);
}
for (const [s, out] of changed) if ([...s].length > 1) check(s, out);
console.log(bad === 0 ? `nameprep agrees with Python on all ${changed.size} changed inputs and every code point` : `${bad} differences`);
process.exit(bad === 0 ? 0 : 1);
