/* global process, console, URL */
// Benchmark of crawlee-bloom-dedup (run `npm run build` first; `npm run bench` runs this against dist/).
// Starts its own redis-server (test-utils), so the shared 6379 is not loaded, and prints a Markdown table.
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import bloomFilters from 'bloom-filters';
import { log } from 'crawlee';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { FingerprintHashing, MemoryBloomDedupStore, RedisBloomDedupStore, RedisSetDedupStore, bloomParameters } from '../dist/index.js';


log.setLevel(log.LEVELS.ERROR); // the filters are filled to capacity on purpose
const P = 1e-6;
const CAPACITY = 1_000_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const fp = (prefix, i) => createHash('sha1').update(`${prefix}-${i}`).digest('hex');
const fps = (prefix, n) => Array.from({ length: n }, (_, i) => fp(prefix, i));
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const rows = [];
const row = (what, value, note = '') => {
  rows.push([what, value, note]);
  console.error(`${what}: ${value} ${note}`);
};

/**
 * Best keys/s of `ROUNDS` runs, by wall clock and by this process's CPU time (keys per CPU-second: what the code
 * costs, without the time spent waiting for a core on a loaded machine). `setup` returns a fresh state each run.
 */
async function bestRates(n, setup, run) {
  let wall = 0;
  let cpu = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const state = await setup(r);
    const cpu0 = process.cpuUsage();
    const start = process.hrtime.bigint();
    await run(state);
    const secs = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu0);
    wall = Math.max(wall, n / secs);
    cpu = Math.max(cpu, n / ((used.user + used.system) / 1e6));
  }
  return { wall, cpu };
}

async function bestRate(n, setup, run) {
  return (await bestRates(n, setup, run)).wall;
}

/** used_cpu_user + used_cpu_sys of the server, in µs. */
async function redisCpu(redis) {
  const info = await redis.info('cpu');
  return (Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1])) * 1e6;
}

async function usedMemory(redis) {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)[1]);
}

const server = await startRedisServer();
// Stop the bench server also when the run is interrupted.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void server.destroy().finally(() => process.exit(130));
  });
}
const redis = new Redis(server.url);
const params = bloomParameters({ capacity: CAPACITY, errorRate: P });
let keyCounter = 0;
const freshKey = (name) => `bench:${name}:${keyCounter++}`;

try {
  console.error(`bench redis-server ${server.url} (pid ${server.pid}); Bloom p=${P}, capacity ${CAPACITY}: m=${params.bits} bits, k=${params.hashes}`);

  // --- Redis Bloom (one Lua script per batch) against SADD, at batch 1, 100, 1000 -------------------------------
  const sizes = { 1: 10_000, 100: 100_000, 1000: 200_000 };
  const bloomRates = {};
  for (const [batch, n] of Object.entries(sizes).map(([b, n]) => [Number(b), n])) {
    const keys = fps(`bloom-${batch}`, n);
    bloomRates[batch] = await bestRate(
      n,
      async () => {
        await redis.flushall();
        const store = await RedisBloomDedupStore.open({ redis, key: freshKey('bloom'), capacity: CAPACITY, errorRate: P });
        return store;
      },
      async (store) => {
        for (let i = 0; i < n; i += batch) await store.add(keys.slice(i, i + batch));
      },
    );
    row(`Redis Bloom (Lua, 1 round trip per batch), batch ${batch}`, `${fmt(bloomRates[batch])} keys/s`, 'new keys, p = 1e-6, k = 20');
  }
  const saddRates = {};
  for (const [batch, n] of Object.entries(sizes).map(([b, n]) => [Number(b), n])) {
    const keys = fps(`set-${batch}`, n);
    saddRates[batch] = await bestRate(
      n,
      async () => {
        await redis.flushall();
        return new RedisSetDedupStore({ redis, key: freshKey('set') });
      },
      async (store) => {
        for (let i = 0; i < n; i += batch) await store.add(keys.slice(i, i + batch));
      },
    );
    row(`Redis set (SADD in Lua, per-key answers), batch ${batch}`, `${fmt(saddRates[batch])} keys/s`, 'exact, 40-hex keys');
  }

  // --- The per-bit check-then-set design (ScrapyRedisBloomFilter): k GETBIT then k SETBIT round trips per key ---
  const perBitN = 1000;
  const perBitKeys = fps('per-bit', perBitN);
  const perBitRate = await bestRate(
    perBitN,
    async () => {
      await redis.flushall();
      return RedisBloomDedupStore.open({ redis, key: freshKey('perbit'), capacity: CAPACITY, errorRate: P });
    },
    async (store) => {
      const block = store.keys.blocks[0];
      for (const key of perBitKeys) {
        const { offsets } = store.bitsOf(key);
        let present = true;
        for (const o of offsets) if ((await redis.getbit(block, o)) === 0) present = false;
        if (!present) for (const o of offsets) await redis.setbit(block, o, 1);
      }
    },
  );
  row('Per-bit check-then-set (k GETBIT, then k SETBIT round trips), batch 1', `${fmt(perBitRate)} keys/s`, 'racy: not atomic');
  // The ratio from the separate runs above mixes moments of different machine load; measure it paired too:
  // each round runs the batched script and the per-bit design back to back, and also reads Redis CPU per key.
  const pairedRatios = [];
  const cpu = { bloom: Infinity, perBit: Infinity };
  const pairKeys = fps('paired', 100_000);
  for (let r = 0; r < Math.max(ROUNDS, 3); r++) {
    await redis.flushall();
    const store = await RedisBloomDedupStore.open({ redis, key: freshKey('paired'), capacity: CAPACITY, errorRate: P });
    let cpu0 = await redisCpu(redis);
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < pairKeys.length; i += 1000) await store.add(pairKeys.slice(i, i + 1000));
    const bloomRate = pairKeys.length / (Number(process.hrtime.bigint() - t0) / 1e9);
    cpu.bloom = Math.min(cpu.bloom, ((await redisCpu(redis)) - cpu0) / pairKeys.length);
    const block = store.keys.blocks[0];
    const few = fps(`paired-per-bit-${r}`, 300);
    cpu0 = await redisCpu(redis);
    t0 = process.hrtime.bigint();
    for (const key of few) {
      const { offsets } = store.bitsOf(key);
      let present = true;
      for (const o of offsets) if ((await redis.getbit(block, o)) === 0) present = false;
      if (!present) for (const o of offsets) await redis.setbit(block, o, 1);
    }
    const perBit = few.length / (Number(process.hrtime.bigint() - t0) / 1e9);
    cpu.perBit = Math.min(cpu.perBit, ((await redisCpu(redis)) - cpu0) / few.length);
    pairedRatios.push(bloomRate / perBit);
  }
  pairedRatios.sort((a, b) => a - b);
  const median = pairedRatios[Math.floor(pairedRatios.length / 2)];
  const speedup = bloomRates[1000] / perBitRate;
  row('Redis Bloom batch 1,000 / per-bit design (best of each above)', `${speedup.toFixed(0)}x`, `target >= 100x: ${speedup >= 100 ? 'met' : 'MISSED'}`);
  row('Same ratio, paired back-to-back runs (median of rounds)', `${median.toFixed(0)}x`,
    `rounds: ${pairedRatios.map((x) => x.toFixed(0)).join(', ')}; target >= 100x: ${median >= 100 ? 'met' : 'MISSED'}`);
  row('Redis CPU per key: batched Lua script / per-bit design', `${cpu.bloom.toFixed(1)} µs / ${cpu.perBit.toFixed(1)} µs`,
    'server cost (INFO cpu delta), the part all workers share');

  // --- Redis memory per key over 1,000,000 keys: Bloom p = 1e-6 against SADD -----------------------------------
  const million = fps('memory', 1_000_000);
  await redis.flushall();
  let before = await usedMemory(redis);
  const bloom = await RedisBloomDedupStore.open({ redis, key: 'bench:memory:bloom', capacity: CAPACITY, errorRate: P });
  for (let i = 0; i < million.length; i += 1000) await bloom.add(million.slice(i, i + 1000));
  const bloomBytes = (await usedMemory(redis)) - before;
  const bloomStats = await bloom.stats();
  await redis.flushall();
  before = await usedMemory(redis);
  const set = new RedisSetDedupStore({ redis, key: 'bench:memory:dupefilter' });
  for (let i = 0; i < million.length; i += 1000) await set.add(million.slice(i, i + 1000));
  const setBytes = (await usedMemory(redis)) - before;
  await redis.flushall();
  const optimalBits = -Math.log(P) / Math.LN2 ** 2;
  const bloomBitsPerKey = (bloomBytes * 8) / 1e6;
  row('Redis memory per key, Bloom p = 1e-6 (INFO used_memory delta / 1e6)', `${(bloomBytes / 1e6).toFixed(2)} B (${bloomBitsPerKey.toFixed(1)} bits)`,
    `optimal ${optimalBits.toFixed(1)} bits: ${(bloomBitsPerKey / optimalBits).toFixed(3)}x (target <= 1.1x: ${bloomBitsPerKey / optimalBits <= 1.1 ? 'met' : 'MISSED'}); items counted ${bloomStats.itemsAdded}`);
  row('Redis memory per key, SADD of 40-hex keys', `${(setBytes / 1e6).toFixed(1)} B`, '');
  row('SADD / Bloom memory', `${(setBytes / bloomBytes).toFixed(1)}x`, `target >= 20x: ${setBytes / bloomBytes >= 20 ? 'met' : 'MISSED'}`);

  // --- In-memory: bloom-filters with our fingerprint indexes, its default hashing, and a JS Set -----------------
  const memKeys = fps('mem', 1_000_000);
  const memRates = await bestRates(
    memKeys.length,
    () => new MemoryBloomDedupStore({ capacity: CAPACITY, errorRate: P }),
    (store) => {
      for (let i = 0; i < memKeys.length; i += 1000) store.addSync(memKeys.slice(i, i + 1000));
    },
  );
  const memRate = memRates.wall;
  // Reference for the same machine state: the same indexes into a plain Uint8Array (no library in the loop).
  const rawHashing = new FingerprintHashing();
  const rawOut = [];
  const rawRates = await bestRates(memKeys.length, () => new Uint8Array(Math.ceil(params.bits / 8)), (bits) => {
    for (const key of memKeys) {
      rawHashing.indexesInto(key, params.bits, params.hashes, rawOut);
      for (let i = 0; i < rawOut.length; i++) {
        const o = rawOut[i];
        const byte = Math.floor(o / 8);
        const mask = 1 << (o % 8); // bit within a byte; the offset itself never meets a bitwise operator
        if ((bits[byte] & mask) === 0) bits[byte] |= mask;
      }
    }
  });
  const rawRate = rawRates.wall;
  const memStore = new MemoryBloomDedupStore({ capacity: CAPACITY, errorRate: P });
  const lookupRate = await bestRate(memKeys.length, () => { memStore.addSync(memKeys); return memStore; }, (store) => {
    for (let i = 0; i < memKeys.length; i += 1000) store.hasSync(memKeys.slice(i, i + 1000));
  });
  const memBytes = (await memStore.stats()).bytesUsed;
  row('In-memory Bloom (bloom-filters BloomFilter + FingerprintHashing), add', `${fmt(memRate)} keys/s`,
    `test-and-set in one pass; target >= 500,000: ${memRate >= 500_000 ? 'met' : 'MISSED'} by wall clock`);
  row('Same, keys per CPU-second of this process', `${fmt(memRates.cpu)} keys/s`,
    `what the code costs without waiting for a core; target >= 500,000: ${memRates.cpu >= 500_000 ? 'met' : 'MISSED'}`);
  row('Reference: same indexes into a plain Uint8Array (no library)', `${fmt(rawRate)} keys/s`, `${fmt(rawRates.cpu)} per CPU-second; the library path reaches ${(100 * memRates.cpu / rawRates.cpu).toFixed(0)} % of it per CPU-second`);
  row('In-memory Bloom, has (bloom-filters\' own has())', `${fmt(lookupRate)} keys/s`, '');
  row('In-memory Bloom, bytes per key', `${(memBytes / 1e6).toFixed(2)} B`, `${params.bits} bits in one Uint8Array`);

  const defaultN = 100_000;
  const defaultRate = await bestRate(
    defaultN,
    () => bloomFilters.BloomFilter.create(CAPACITY, P),
    (filter) => {
      for (let i = 0; i < defaultN; i++) {
        const key = memKeys[i];
        if (!filter.has(key)) filter.add(key);
      }
    },
  );
  row('bloom-filters with its default hashing (has + add)', `${fmt(defaultRate)} keys/s`,
    `two xxhash64 passes in pure JS per call; ~75,000 on a quiet machine (notes/bloom-redis.md), so this run ran at ~${(75_000 / defaultRate).toFixed(1)}x contention`);

  const setRate = await bestRate(memKeys.length, () => new Set(), (s) => {
    for (const key of memKeys) if (!s.has(key)) s.add(key);
  });
  // Bytes per key of a Set that owns its strings, measured in a fresh process (no garbage from the runs above).
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', `
    import { createHash } from 'node:crypto';
    gc(); const before = process.memoryUsage().heapUsed;
    const s = new Set();
    for (let i = 0; i < 1e6; i++) s.add(createHash('sha1').update('owned-' + i).digest('hex'));
    gc(); console.log((process.memoryUsage().heapUsed - before) / s.size);`], { encoding: 'utf8' });
  const setBytesPerKey = Number(child.stdout.trim());
  row('JS Set of the 40-hex strings, add', `${fmt(setRate)} keys/s`, 'exact; at most 2^24 entries');
  row('JS Set, bytes per key (heap delta, Set owns the strings)', `${setBytesPerKey.toFixed(1)} B`, `${(setBytesPerKey / (memBytes / 1e6)).toFixed(0)}x the Bloom`);

  const header = `Benchmark ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
    `Redis ${/redis_version:(\S+)/.exec(await redis.info('server'))[1]} (own bench server), best of ${ROUNDS} runs, load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' / ')}`;
  const table = [`${header}`, '', '| measurement | result | note |', '|---|---|---|', ...rows.map(([what, value, note]) => `| ${what} | ${value} | ${note} |`)].join('\n');
  console.log(table);
  // `npm run bench -- --readme` also writes the table into the README between the bench markers.
  if (process.argv.includes('--readme')) {
    const readme = new URL('../README.md', import.meta.url);
    const text = readFileSync(readme, 'utf8');
    writeFileSync(readme, text.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`));
  }
} finally {
  redis.disconnect();
  await server.destroy();
}
