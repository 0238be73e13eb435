/* global console, process, Buffer */
// Throughput of canonicalizeUrl and of the Request + fingerprint path on the public conformance corpus repeated to
// 100,000 requests, next to Scrapy's own (Debian python3-scrapy) in the same command.
//   npm run bench                  (after npm run build)
//   npm run bench -- --n 20000 --rounds 5 --python /usr/bin/python3 --no-python --markdown
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist', 'index.js');
if (!existsSync(dist)) {
  console.error('dist/ is missing: run `npm run build` in packages/scrapy-fingerprint first.');
  process.exit(1);
}
const { canonicalizeUrl, fingerprint } = await import(dist);

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    python: { type: 'string', default: '/usr/bin/python3' },
    'no-python': { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
  },
});
const n = Number(args.n);
const rounds = Number(args.rounds);

function locateVectors() {
  if (process.env.SCRAPY_CONFORMANCE_DIR) return process.env.SCRAPY_CONFORMANCE_DIR;
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'conformance', 'fingerprint');
    if (existsSync(join(candidate, 'expected.jsonl'))) return candidate;
    if (dirname(dir) === dir) throw new Error('shared/conformance/fingerprint not found; set SCRAPY_CONFORMANCE_DIR');
  }
}

// Keep the cases where Scrapy builds the request (fp) and where canonicalize_url succeeds (canon), as the notes' bench.
const expected = readFileSync(join(locateVectors(), 'expected.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const cases = expected.map((e) => ({
  url: e.url, method: e.method, body: e.body, body_hex: e.body_hex, headers: e.headers,
  include_headers: e.include_headers, keep_fragments: e.keep_fragments ?? false,
  fp: e.error == null, canon: e.canonical_url != null && !e.canonicalize_kwargs,
}));
const fpCases = cases.filter((c) => c.fp);
const canonCases = cases.filter((c) => c.canon);
const fpItems = Array.from({ length: n }, (_, i) => {
  const c = fpCases[i % fpCases.length];
  return {
    request: { url: c.url, method: c.method, body: c.body_hex != null ? Buffer.from(c.body_hex, 'hex') : c.body, headers: c.headers },
    options: { includeHeaders: c.include_headers, keepFragments: c.keep_fragments },
  };
});
const canonUrls = Array.from({ length: n }, (_, i) => canonCases[i % canonCases.length].url);

function rate(fn, items) {
  let wall = 0;
  let cpu = 0;
  fn(items.slice(0, Math.min(items.length, 20000))); // warm-up (JIT)
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn(items);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    wall = Math.max(wall, items.length / seconds);
    cpu = Math.max(cpu, items.length / ((c.user + c.system) / 1e6));
  }
  return { wall, cpu };
}

let sink = 0;
const ours = {
  canonicalize: rate((urls) => { for (const u of urls) sink += canonicalizeUrl(u).length; }, canonUrls),
  fingerprint: rate((items) => { for (const it of items) sink += fingerprint(it.request, it.options).length; }, fpItems),
};
const mem = process.memoryUsage();
ours.rssMiB = mem.rss / 2 ** 20;
ours.heapMiB = mem.heapUsed / 2 ** 20;

let ref = null;
let refNote = '';
if (!args['no-python']) {
  const probe = spawnSync(args.python, ['-c', 'import scrapy'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    refNote = `Python reference skipped: \`${args.python} -c 'import scrapy'\` failed (install Debian's python3-scrapy).`;
  } else {
    const py = spawnSync(args.python, [join(here, 'scrapy_reference.py')], {
      input: JSON.stringify({ cases, n, rounds }), encoding: 'utf8', maxBuffer: 1 << 26,
    });
    if (py.status !== 0) refNote = `Python reference failed: ${py.stderr.trim().split('\n').pop()}`;
    else ref = JSON.parse(py.stdout);
  }
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const ratio = (a, b) => (b ? `${(a / b).toFixed(1)}x` : 'n/a');
const rows = [
  ['canonical URLs/s (`canonicalizeUrl` vs `canonicalize_url`)', ours.canonicalize, ref?.canonicalize],
  ['fingerprints/s (`fingerprint` vs `Request()` + `fingerprint()`)', ours.fingerprint, ref?.fingerprint],
];
const refName = ref ? `Scrapy ${ref.versions.scrapy} / w3lib ${ref.versions.w3lib} / Python ${ref.versions.python}` : 'Scrapy';
const header = `| operation (n = ${fmt(n)}, best of ${rounds}) | this package: wall / per CPU-second | ${refName}: wall / per CPU-second | ratio: wall / per CPU-second |`;
const lines = [header, '|---|---|---|---|'];
for (const [name, a, b] of rows) {
  lines.push(
    `| ${name} | ${fmt(a.wall)} / ${fmt(a.cpu)} | ${b ? `${fmt(b.wall)} / ${fmt(b.cpu)}` : 'n/a'} | ${b ? `**${ratio(a.wall, b.wall)}** / **${ratio(a.cpu, b.cpu)}**` : 'n/a'} |`,
  );
}
lines.push(`| memory after the run | RSS ${ours.rssMiB.toFixed(0)} MiB, heap ${ours.heapMiB.toFixed(0)} MiB | ${ref ? `max RSS ${ref.maxRssMiB.toFixed(0)} MiB` : 'n/a'} | |`);
console.log(`${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), corpus: ${fpCases.length} requests / ${canonCases.length} URLs of the public vectors repeated to ${fmt(n)}`);
console.log(lines.join('\n'));
if (refNote) console.log(refNote);
if (sink === -1) console.log(sink);
