import { bloomFalsePositiveRate } from '@crawlee-distributed/redis-kit';
import type { HandledRequestsMode } from '../queue/handled-store.js';
import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { metaNumber } from '../core/meta-number.js';

/** The handled store of a queue as its meta records it (`handledRequests`, create-queue.lua). */
export interface HandledStoreInfo {
  /** The mode; 'key' for a queue created before the option existed (the scripts' default). */
  handledRequests: HandledRequestsMode;
  /** 'bits': the filter's estimated false-positive rate now, (1 - e^(-k n / m))^k with n = the exact handled count;
   * the rate a never-added request is reported already handled. */
  handledFalsePositiveRate?: number;
  /** 'bits': what the filter was sized for. */
  handledBloom?: { expectedRequests: number; falsePositiveRate: number; bits: number; hashes: number; blocks: number };
}

/**
 * Reads the handled store of a queue from its meta. O(1).
 * @param redis - the connection
 * @param keys - the queue's keys
 * @param handled - the handled count (for the estimated rate)
 */
export async function readHandledStoreInfo(redis: RedisConnection, keys: QueueKeys, handled: number): Promise<HandledStoreInfo> {
  const [mode, bits, k, blocks, sizing] = await redis.hmget(keys.meta, 'hmode', 'hbBits', 'hbK', 'hbBlocks', 'hbSizing');
  const handledRequests = (mode ?? 'key') as HandledRequestsMode;
  if (handledRequests !== 'bits') return { handledRequests };
  const read = (field: string, raw: string | null | undefined) => metaNumber('handled store', keys.meta, field, raw, 0);
  const shape = { blockBits: read('hbBits', bits), hashes: read('hbK', k), blocks: read('hbBlocks', blocks) };
  const [expected, rate] = (sizing ?? '').split(':').map((part) => metaNumber('handled store', keys.meta, 'hbSizing', part, 0, false));
  return {
    handledRequests,
    handledFalsePositiveRate: bloomFalsePositiveRate({ hashes: shape.hashes, bits: shape.blockBits * shape.blocks }, handled),
    handledBloom: { expectedRequests: expected ?? 0, falsePositiveRate: rate ?? 0, bits: shape.blockBits * shape.blocks, hashes: shape.hashes, blocks: shape.blocks },
  };
}
