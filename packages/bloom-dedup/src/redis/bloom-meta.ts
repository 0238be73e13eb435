import { estimatedFalsePositiveRate, expectedFillRatio, type BloomParameters } from '../bloom/parameters.js';
import type { DedupStats } from '../dedup-store.js';
import type { BloomKeys } from './bloom-keys.js';
import { checkBlockLayout } from './check-block-layout.js';
import type { RedisConnection } from './connection.js';
import { OPEN_REPLY } from './reply-codes.js';
import { runScript } from './scripts.js';

/** Field of the meta hash counting keys added as new, fleet-wide. */
export const NEW_FIELD = 'itemsAdded';
/** Field of the meta hash counting requests filtered as seen, fleet-wide. */
export const FILTERED_FIELD = 'filtered';

/**
 * Creates the filter's meta hash, or checks the one there against these parameters (meta_open.lua, atomically).
 * @param redis - the connection
 * @param key - the store's base key, for messages
 * @param keys - the filter's keys
 * @param p - the filter's shape
 * @param recipe - the fingerprint recipe, checked when both sides know it
 * @returns true when another process split the filter since the caller looked (nothing was written)
 * @throws {@link IncompatibleFilterError} when the stored parameters differ
 */
export async function openFilterMeta(
  redis: RedisConnection,
  key: string,
  keys: BloomKeys,
  p: BloomParameters,
  recipe: string | undefined,
): Promise<boolean> {
  await checkBlockLayout(redis, key, keys);
  const compared = [
    ['bits', p.bits],
    ['hashes', p.hashes],
    ['blocks', p.blocks],
    ['blockBits', p.blockBits],
    ['indexScheme', p.indexScheme],
  ] as const;
  const info = [
    ['capacity', p.capacity],
    ['errorRate', p.errorRate],
    ['type', 'bloom'],
    ['createdAt', new Date().toISOString()],
  ] as const;
  const opened = await runScript(
    redis,
    'metaOpen',
    [keys.meta],
    [compared.length, ...compared.flat().map(String), recipe ?? '', ...info.flat().map(String)],
    keys.meta,
  );
  return Number(opened) === OPEN_REPLY.SPLIT;
}

/**
 * Allocates every block's full string, so the filter's memory is taken once, up front.
 * @param blockBits - bits per block
 */
export async function preallocateBlocks(redis: RedisConnection, keys: BloomKeys, blockBits: number): Promise<void> {
  await Promise.all(keys.blocks.map((block) => runScript(redis, 'bloomPrealloc', [block], [blockBits], block)));
}

/**
 * Shared totals of an unsplit filter from its meta hash; fill ratio and false-positive rate are the expected values
 * for that many items.
 */
export async function readFilterStats(redis: RedisConnection, keys: BloomKeys, p: BloomParameters): Promise<DedupStats> {
  const [added, filtered] = await redis.hmget(keys.meta, NEW_FIELD, FILTERED_FIELD);
  const lengths = await Promise.all(keys.blocks.map((block) => redis.strlen(block)));
  const itemsAdded = Number(added ?? 0);
  return {
    itemsAdded,
    filtered: Number(filtered ?? 0),
    fillRatio: expectedFillRatio(p, itemsAdded),
    estimatedFalsePositiveRate: estimatedFalsePositiveRate(p, itemsAdded),
    bytesUsed: lengths.reduce((a, b) => a + Number(b), 0),
    capacity: p.capacity,
    errorRate: p.errorRate,
    bits: p.bits,
    hashes: p.hashes,
    blocks: p.blocks,
  };
}
