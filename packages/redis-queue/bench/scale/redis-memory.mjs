// Memory of the bench's own redis-server: used_memory, and per key its type, encoding, length and MEMORY USAGE.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseInfo } from '../redis-info.mjs';

/** `INFO memory` fields as numbers where they are numbers. */
export async function memoryInfo(redis) {
  const info = parseInfo(await redis.info('memory'));
  const out = {};
  for (const [k, v] of Object.entries(info)) out[k] = Number.isFinite(Number(v)) ? Number(v) : v;
  return out;
}

/** used_memory after the server settled (client buffers drained, incremental rehashing given time). */
export async function usedMemory(redis) {
  await sleep(200);
  return (await memoryInfo(redis)).used_memory;
}

const LENGTH = { hash: 'hlen', zset: 'zcard', set: 'scard', list: 'llen', string: 'strlen', stream: 'xlen' };

/**
 * Every key matching `pattern` (SCAN: only ever on the bench's own server, never on a hot path) with its type,
 * encoding, element count and MEMORY USAGE (`samples` nested values sampled; 0 = every value, exact but O(N)).
 */
export async function keyBreakdown(redis, pattern, samples = 0) {
  const keys = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const rows = [];
  for (const key of keys.sort()) {
    const type = await redis.type(key);
    const encoding = await redis.object('ENCODING', key);
    const length = LENGTH[type] ? await redis.call(LENGTH[type], key) : undefined;
    const bytes = await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', samples);
    rows.push({ key, type, encoding, length: Number(length), bytes: Number(bytes) });
  }
  return rows;
}
