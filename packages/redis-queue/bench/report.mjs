// Turns the measurements into the Markdown section committed to the README, and checks its targets.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

const int = (x) => (x === undefined || Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const fixed = (x, digits = 2) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
const ratio = (x) => (x === undefined || Number.isNaN(x) ? '–' : `${x.toFixed(2)}x`);

function memoryCell(m) {
  if (!m) return '–';
  if (m.capped) return `${int(m.rate)}*`;
  return int(m.rate);
}

/** The three targets, each with its name, the measured value and whether it is met. */
export function checkTargets(rows) {
  const bySize = new Map(rows.map((r) => [r.n, r]));
  const sizes = rows.map((r) => r.n);
  const smallest = bySize.get(Math.min(...sizes));
  const largest = bySize.get(Math.max(...sizes));
  const targets = [];
  if (smallest?.memory && smallest.redis[1]) {
    const x = smallest.redis[1].rate / smallest.memory.rate;
    targets.push({ name: `Redis (1 worker) at least MemoryStorage's rate at ${int(smallest.n)}`, value: ratio(x), met: x >= 1 });
  }
  if (smallest !== largest && smallest?.redis[1] && largest?.redis[1]) {
    const x = smallest.redis[1].rate / largest.redis[1].rate;
    targets.push({
      name: `rate at ${int(largest.n)} within 1.5x of the rate at ${int(smallest.n)} (Redis, 1 worker)`,
      value: `${int(smallest.redis[1].rate)} / ${int(largest.redis[1].rate)} = ${ratio(x)}`,
      met: x <= 1.5,
    });
  }
  for (const row of rows) {
    if (row.redis[1] && row.redis[2]) {
      const x = row.redis[2].rate / row.redis[1].rate;
      const anchor = row.independent ? ` (anchor: ${ratio(row.independent.rate / row.redis[1].rate)})` : '';
      targets.push({ name: `two workers at least 1.6x one, ${int(row.n)} requests`, value: `${ratio(x)}${anchor}`, met: x >= 1.6 });
    }
  }
  return targets;
}

/** The Markdown section (between the markers) for the README. */
export function markdown(rows, meta) {
  const lines = [];
  lines.push(
    `Measured ${meta.date} on ${meta.machine}; Node ${meta.node}, Redis ${meta.redisVersion} (a bench-only redis-server ` +
      `on loopback, no persistence), crawlee ${meta.crawlee}. A BasicCrawler with a no-op handler and a fixed ` +
      `concurrency of ${meta.concurrency} per process; each run in fresh processes, which first crawl ${meta.warmup.toLocaleString('en-US')} requests ` +
      `on a queue of their own (JIT warm-up; a fleet's workers run for hours); each value is the median of ${meta.repeat} interleaved runs ` +
      `(every run's rate is in \`--json\`); rates count from the moment the ` +
      `crawlers were released to the last handled request (the time until \`crawler.run()\` resolves is the finish latency). ` +
      `Load average at the start: ${meta.loadAverage}. Parallel CPU headroom (the same busy loop in two processes ` +
      `at once, relative to one; 2.00x = two free cores): ${fixed(meta.headroomBefore)}x before the runs, ` +
      `${fixed(meta.headroomAfter)}x after; "2 workers / 1" cannot exceed it.`,
    '',
    '| requests | MemoryStorage req/s | Redis, 1 worker req/s | Redis / Memory | Redis, 2 workers req/s | 2 workers / 1 | anchor: 2 independent processes req/s | anchor / 1 |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    const one = r.redis[1];
    const two = r.redis[2];
    const anchor = r.independent;
    lines.push(
      `| ${int(r.n)} | ${memoryCell(r.memory)} | ${int(one?.rate)} | ${r.memory && one ? ratio(one.rate / r.memory.rate) : '–'} | ` +
        `${int(two?.rate)} | ${one && two ? ratio(two.rate / one.rate) : '–'} | ${int(anchor?.rate)} | ${one && anchor ? ratio(anchor.rate / one.rate) : '–'} |`,
    );
  }
  if (rows.some((r) => r.independent)) {
    lines.push(
      '',
      'Anchor: two processes that share no request, each crawling a Redis queue of its own holding half the requests, ' +
        'released together on the same machine and Redis server. Whatever they reach is what two crawler processes can ' +
        'reach here at all; the shared queue is read against it.',
    );
  }
  if (rows.some((r) => r.memory?.capped)) {
    lines.push('', `\\* MemoryStorage run cut off after ${meta.memoryCapSecs} s; the rate is over the requests handled by then.`);
  }
  const stalled = rows.filter((r) => r.memory?.finishStalled).map((r) => int(r.n));
  if (stalled.length > 0) {
    lines.push(
      '',
      `MemoryStorage had handled every request but its crawler had not finished 10 s later at ${stalled.join(', ')} ` +
        'requests (its client gives no `queueHasLockedRequests`, so `isFinished()` falls back to `listHead`, which scans ' +
        'the queue); the process was stopped there.',
    );
  }
  lines.push(
    '',
    'Cost per handled request. Worker CPU: user + system time of the crawler process(es) during the crawl. Redis ' +
      '(1 worker): round trips counted in the worker (one auto-pipelined write, however many commands it carries, is one); commands (script-internal ones included) and CPU time read from ' +
      'the server; memory from `INFO memory` before seeding, after seeding (pending) and after the crawl (handled).',
    '',
    '| requests | worker CPU ms, Memory | worker CPU ms, Redis 1 / 2 workers | Redis round trips | Redis commands | Redis CPU µs | memory per pending request | memory per handled request | finish latency ms | seed req/s (Memory / Redis) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    const one = r.redis[1];
    if (!one) continue;
    lines.push(
      `| ${int(r.n)} | ${fixed(r.memory?.workerCpuMsPerRequest)} | ${fixed(one.workerCpuMsPerRequest)} / ${fixed(r.redis[2]?.workerCpuMsPerRequest)} | ` +
        `${fixed(one.roundTripsPerRequest)} | ${fixed(one.serverCommandsPerRequest, 1)} | ${fixed(one.redisCpuUsPerRequest, 0)} | ` +
        `${int(one.memoryPerPendingBytes)} B | ${int(one.memoryPerHandledBytes)} B | ${int(one.finishLatencyMs)} | ${int(r.memory?.seedRate)} / ${int(one.seedRate)} |`,
    );
  }
  const targets = checkTargets(rows);
  if (targets.length > 0) {
    lines.push('', '| target | measured | |', '|---|---:|---|');
    for (const t of targets) lines.push(`| ${t.name} | ${t.value} | ${t.met ? 'met' : '**missed**'} |`);
  }
  lines.push('', `Reproduce: \`npm run bench\` in \`packages/redis-queue\` (after \`npx turbo run build --filter=crawlee-redis-queue\`).`);
  return lines.join('\n');
}

/**
 * Writes the section between the markers of `readmePath`; when the README or its markers are missing, writes
 * `fallbackPath` instead. Returns the path written.
 */
export function writeSection(section, readmePath, fallbackPath) {
  if (existsSync(readmePath)) {
    const text = readFileSync(readmePath, 'utf8');
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    if (start >= 0 && end > start) {
      writeFileSync(readmePath, `${text.slice(0, start + START.length)}\n${section}\n${text.slice(end)}`);
      return readmePath;
    }
  }
  writeFileSync(fallbackPath, `# crawlee-redis-queue benchmark\n\n${START}\n${section}\n${END}\n`);
  return fallbackPath;
}
