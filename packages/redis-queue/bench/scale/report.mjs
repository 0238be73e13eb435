// The scale benchmark's Markdown: rates at each queue size, bytes per pending and per handled request, the
// restart, targets, and the seed workload projected from the measured per-request costs.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

/** crawlee-python's Redis client, as published in apify/crawlee-python#1406 (dedup structure only, URLs of the
 * form `https://crawlee.dev/{i}`, Bloom error rate 1e-7): 10M URLs as a set 662 MB, as a Bloom filter 42 MB. */
export const CRAWLEE_PYTHON = {
  source: 'https://github.com/apify/crawlee-python/pull/1406',
  setBytesPerUrl: (662 * 1e6) / 10e6,
  bloomBytesPerUrl: (42 * 1e6) / 10e6,
};

/** The crawl the compact frontier was designed for: 700M fingerprints seen, 40M queued; the Scrapy fleet needed 27 GB of Redis. */
export const SEED = { handled: 700e6, pending: 40e6, scrapyGB: 27, targetBitsGB: 12 };

/** The seed workload from one row's measured costs: B/pending at the largest size x 40M + B/handled x 700M. */
export function seedBytes(row) {
  const pending = (row.pending?.checkpoints.at(-1)?.perPending ?? NaN) * SEED.pending;
  const handled = (row.handled?.perHandled ?? NaN) * SEED.handled;
  return { pending, handled, total: pending + handled };
}

/** The queue's own memory report (get().memoryBytes: MEMORY USAGE of its keys, index sampled) against the
 * used_memory delta of the handled queue, as a ratio. */
function reported(handled) {
  const bytes = handled?.info?.memoryBytes;
  if (bytes === undefined || !handled?.bytes) return '–';
  return `${(bytes / 2 ** 20).toFixed(1)} MiB / ${(handled.bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** "measured (estimated)" false-positive cell: never-seen requests reported handled, and the filter's own estimate. */
function falsePositives(probe) {
  if (!probe) return '–';
  const measured = `${probe.falsePositives} / ${int(probe.probes)}`;
  const estimated = probe.storage?.handledFalsePositiveRate;
  return estimated === undefined ? measured : `${measured} (rate ${(probe.falsePositives / probe.probes).toExponential(1)}; estimated ${estimated.toExponential(1)})`;
}

const int = (x) => (x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const b = (x) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));
const gb = (bytes) => (bytes / 1e9).toFixed(1);
const sizeName = (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

/** Targets of the compact frontier (docs/compact-frontier.md), judged on one row. */
export function targetsOf(row) {
  const cps = row.pending?.checkpoints ?? [];
  if (row.backend !== 'redis' || cps.length < 2) return [];
  const first = cps[0];
  const last = cps[cps.length - 1];
  // The machine-speed control (driver.mjs calibrationMs): the ratio at the speed the first checkpoint's machine had.
  const speed = first.calibrationMs && last.calibrationMs ? last.calibrationMs / first.calibrationMs : undefined;
  const ratio = (x, y) => `${(x / y).toFixed(2)}x` + (speed && Math.abs(speed - 1) > 0.05 ? ` (${(x / y / speed).toFixed(2)}x at the first checkpoint's machine speed: the control took ${speed.toFixed(2)}x as long)` : '');
  const out = [
    { name: `add rate at ${sizeName(last.inQueue)} within 1.2x of ${sizeName(first.inQueue)}`, met: first.addRate / last.addRate <= 1.2, value: ratio(first.addRate, last.addRate) },
    {
      name: `lock-and-handle rate at ${sizeName(last.inQueue)} within 1.2x of ${sizeName(first.inQueue)}`,
      met: first.lockAndHandleRate / last.lockAndHandleRate <= 1.2,
      value: ratio(first.lockAndHandleRate, last.lockAndHandleRate),
    },
    {
      name: 'memory linear in the count (bytes per pending within 15% across sizes)',
      met: Math.max(...cps.map((c) => c.perPending)) / Math.min(...cps.map((c) => c.perPending)) <= 1.15,
      value: cps.map((c) => b(c.perPending)).join(' / '),
    },
    { name: 'pending request at most 200 B', met: last.perPending <= 200, value: `${b(last.perPending)} B` },
  ];
  if (row.restart) out.push({ name: 'first request after restart under 1 s', met: row.restart.sinceOpenMs < 1000, value: `${int(row.restart.sinceOpenMs)} ms` });
  const perHandled = row.handled?.perHandled;
  if (perHandled === undefined) return out; // a --pending-only run measured no handled requests
  if (row.mode === 'key') out.push({ name: "handled request at most 32 B ('key')", met: perHandled <= 32, value: `${b(perHandled)} B` });
  if (row.mode === 'bits') {
    out.push({ name: "handled request at most 6 B ('bits', 1e-6)", met: perHandled <= 6, value: `${b(perHandled)} B` });
    const seed = seedBytes(row);
    out.push({ name: `seed workload at most ${SEED.targetBitsGB} GB ('bits')`, met: seed.total <= SEED.targetBitsGB * 1e9, value: `${gb(seed.total)} GB (pending ${gb(seed.pending)} GB)` });
  }
  return out;
}

/** The Markdown section. */
export function markdown(rows, meta) {
  const sizes = [...new Set(rows.flatMap((r) => (r.pending?.checkpoints ?? []).map((c) => c.inQueue)))].sort((x, y) => x - y);
  const lines = [];
  lines.push(`Scale benchmark, ${meta.date}: ${meta.machine}, Node ${meta.node}, Redis ${meta.redisVersion} (own server, default config), ` +
    `Crawlee ${meta.crawlee}, load average at start ${meta.loadAverage}` +
    (meta.cpusAllowed ? `, the benchmark's processes (driver and redis-server) pinned to CPU ${meta.cpusAllowed} while every other process on the machine was kept on the other core` : '') +
    `. ${int(meta.size)} requests of a typical crawl's shape ` +
    `(70-character URLs, \`userData: { label, depth }\`) added through Crawlee's RequestQueue, 1,000 per call; ` +
    `lock-and-handle windows of ${int(meta.window)} requests with ${meta.concurrency} concurrent fetchNextRequest/markRequestHandled loops. ` +
    `Rates in requests/s; "add" is the last ${int(meta.addWindow)} adds before each size.`);
  lines.push('');
  lines.push(`| layout | ${sizes.map((s) => `add @${sizeName(s)}`).join(' | ')} | ${sizes.map((s) => `lock+handle @${sizeName(s)}`).join(' | ')} | B/pending | B/handled | get() memoryBytes / measured | false positives | restart: first request | restart RSS |`);
  lines.push(`|---|${sizes.map(() => '---:').join('|')}|${sizes.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|`);
  for (const r of rows) {
    const at = (s) => r.pending?.checkpoints.find((c) => c.inQueue === s);
    const last = r.pending?.checkpoints.at(-1);
    const restart = r.restart ? `${int(r.restart.sinceOpenMs)} ms (${int(r.restart.sinceProcessStartMs)} ms from process start)` : '–';
    lines.push(
      `| ${r.label} | ${sizes.map((s) => int(at(s)?.addRate)).join(' | ')} | ${sizes.map((s) => int(at(s)?.lockAndHandleRate)).join(' | ')} | ` +
        `${b(last?.perPending)} | ${b(r.handled?.perHandled)} | ${reported(r.handled)} | ${falsePositives(r.probe)} | ${restart} | ${r.restart ? `${int(r.restart.rss / 2 ** 20)} MiB` : '–'} |`,
    );
  }
  lines.push(`| crawlee-python Redis client, published ([#1406](${CRAWLEE_PYTHON.source}); dedup structure only, 10M URLs) | ${sizes.map(() => '–').join(' | ')} | ${sizes.map(() => '–').join(' | ')} | – | set ${b(CRAWLEE_PYTHON.setBytesPerUrl)} / Bloom ${b(CRAWLEE_PYTHON.bloomBytesPerUrl)} | – | Bloom at 1e-7 | – | – |`);
  lines.push('');
  lines.push('MemoryStorage rows count bytes of the Node heap (after a full GC), not Redis. B/handled comes from a separate queue of requests added already handled (handledAt set) plus a few pending. "get() memoryBytes / measured": what that queue reports about itself (its keys\' `MEMORY USAGE`, index buckets sampled) against the used_memory delta.');
  lines.push('');
  const timed = rows.filter((r) => r.pending?.checkpoints.some((c) => c.addUs));
  if (timed.length > 0) {
    lines.push('Where the time goes, in µs per request at each size: wall time, the measuring process\'s CPU (Crawlee\'s RequestQueue, this package\'s client, ioredis; in brackets the part spent in GC pauses) and the Redis server\'s CPU (`INFO cpu`), over the same add window and lock-and-handle window. The lock-and-handle loops poll (1 ms) while Crawlee refills its local head, so their Node and Redis CPU include those polls. "control": a fixed piece of CPU work that does not depend on the queue (5,000 Requests built, JSON round trip, SHA-256; median of 3), taken before each checkpoint: when it grows, the machine got slower, not the queue.');
    lines.push('');
    lines.push('| layout | size | add: wall | add: Node CPU (GC) | add: Redis CPU | lock+handle: wall | lock+handle: Node CPU (GC) | lock+handle: Redis CPU | Node heap | control |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of timed) {
      for (const c of r.pending.checkpoints.filter((x) => x.addUs)) {
        const us = (t) => `${b(t.node)} (${b(t.gc)})`;
        lines.push(`| ${r.label} | ${sizeName(c.inQueue)} | ${b(c.addUs.wall)} | ${us(c.addUs)} | ${b(c.addUs.redis)} | ${b(c.handleUs.wall)} | ${us(c.handleUs)} | ${b(c.handleUs.redis)} | ${int(c.nodeHeapBytes / 2 ** 20)} MiB | ${c.calibrationMs ? `${int(c.calibrationMs)} ms` : '–'} |`);
      }
    }
    for (const p of meta.floor?.points ?? []) {
      lines.push(`| Redis floor: HSET + RPUSH per entry, 1,000 per EVALSHA (bare-floor.mjs) | ${sizeName(p.inQueue)} | ${b(1e6 / p.rate)} | – | ${b(p.redisUs)} | – | – | – | – | – |`);
    }
    lines.push('');
  }
  lines.push(`Seed workload (${SEED.handled / 1e6}M handled, ${SEED.pending / 1e6}M pending) from the measured per-request costs, against the ${SEED.scrapyGB} GB the Scrapy crawl needed:`);
  lines.push('');
  lines.push('| layout | pending | handled | total |');
  lines.push('|---|---:|---:|---:|');
  for (const r of rows.filter((x) => x.backend === 'redis')) {
    const seed = seedBytes(r);
    lines.push(`| ${r.label} | ${gb(seed.pending)} GB | ${gb(seed.handled)} GB | ${gb(seed.total)} GB |`);
  }
  lines.push(`| Scrapy fleet of the report (Bloom bits + compact requests) | – | – | ${SEED.scrapyGB} GB |`);
  lines.push('');
  const misses = rows.flatMap((r) => targetsOf(r).map((t) => ({ ...t, label: r.label }))).filter((t) => !t.met);
  lines.push(misses.length === 0 ? 'Every target met.' : `Targets missed: ${misses.map((t) => `${t.label}: ${t.name} (${t.value})`).join('; ')}.`);
  return lines.join('\n');
}

/** Writes `section` between `<!-- <tag>:start -->` and `<!-- <tag>:end -->` of `file` (appended when the markers
 * are missing); `tag` defaults to `bench-scale` (`--section` names another, e.g. a rates-only run). */
export function writeSection(section, file, tag = 'bench-scale') {
  const start = `<!-- ${tag}:start -->`;
  const end = `<!-- ${tag}:end -->`;
  const block = `${start}\n${section}\n${end}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  writeFileSync(file, i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text}${text && !text.endsWith('\n') ? '\n' : ''}${block}\n`);
  return file;
}
