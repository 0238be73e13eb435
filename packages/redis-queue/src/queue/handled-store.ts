import { bloomShape, type BloomShape } from '@crawlee-distributed/redis-kit';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { integerOption, numberOption } from '../options/option-ranges.js';
import { checkKnownOptions } from '../options/known-options.js';

/**
 * What a queue keeps of a handled request (`handledRequests` option; the Lua side is
 * `src/lua/includes/handled-store.lua`). Handled requests always leave the queue's `data` hash.
 * - `'request'`: the request JSON with `handledAt` (a `done` hash); `getRequest` returns it.
 * - `'key'`: only its id, in listpack index buckets under linear hashing (about 23 B per handled request); exact
 *   dedup; `getRequest` returns undefined.
 * - `'bits'`: k bits of a Bloom filter sized by {@link HandledBloomOptions} (about 3.6 B per expected request at
 *   1e-6); `getRequest` returns undefined; a never-seen request is reported handled at the false-positive rate,
 *   never the other way round.
 * - `'store'`: nothing: the dedup store attached with `withDedup` (crawlee-bloom-dedup, a Redis store on the queue's
 *   Redis) is the record of handled requests, so a crawl keeps one seen-set (a Bloom store: about 3.6 B per
 *   expected request at 1e-6, nothing more per handled request). Every add must run the store's op: an add without
 *   it throws `DedupStoreRequiredError`; `getRequest` of a handled id returns undefined; a handled request cannot
 *   be forgotten through the queue.
 */
export type HandledRequestsMode = 'request' | 'key' | 'bits' | 'store';

/** Sizing of the `'bits'` mode's Bloom filter, fixed when the queue is created. */
export interface HandledBloomOptions {
  /** Handled requests the filter is sized for; 1 to 10,000,000,000. Beyond it the rate grows (reported by
   * `RedisQueueAdmin.stats()`). @defaultValue 1,000,000 */
  expectedRequests?: number;
  /** False-positive rate at `expectedRequests`: the share of never-added requests an add reports as already handled
   * (and skips); 1e-12 to 0.1. @defaultValue 1e-6 */
  falsePositiveRate?: number;
}

/** The handled store of a queue: mode and the parameters create-queue.lua records. */
export interface HandledStoreSettings {
  readonly mode: HandledRequestsMode;
  /** 'key': entries per index bucket before a split. */
  readonly indexLoad: number;
  /** 'bits': filter shape (m per block, k, blocks) and what it was sized from. */
  readonly bloom?: { blockBits: number; hashes: number; blocks: number; expectedRequests: number; falsePositiveRate: number };
}

/** Entries per 'key' index bucket before it is split. Under linear hashing an unsplit bucket holds up to about
 * 2 x 48 entries (plus Poisson spread), far under Redis's default `hash-max-listpack-entries` of 512 (and mostly
 * under 128, which some deployments set), so buckets stay listpacks; measured at 22-24 B per handled request
 * (docs/compact-frontier.md). A bucket that outgrows the setting becomes a hashtable until its split rewrites it. */
export const HANDLED_INDEX_LOAD = 48;

/**
 * Bloom filter shape of the 'bits' store from an expected count and a rate: the kit's {@link bloomShape} (the same
 * sizing as crawlee-bloom-dedup's filters), in the fewest blocks of at most 2^32 bits.
 * @param expectedRequests - n
 * @param falsePositiveRate - p
 */
export function handledBloomShape(expectedRequests: number, falsePositiveRate: number): BloomShape {
  return bloomShape(expectedRequests, falsePositiveRate);
}

/**
 * Checks the `handledRequests` / `handledBloom` options.
 * @param mode - the option (default 'key')
 * @param bloom - sizing, only with 'bits'
 * @throws {@link InvalidOptionsError} for another mode, sizing outside its range, or sizing without 'bits'
 */
export function handledStoreSettings(mode: unknown = 'key', bloom?: HandledBloomOptions): HandledStoreSettings {
  if (mode !== 'request' && mode !== 'key' && mode !== 'bits' && mode !== 'store') {
    throw new InvalidOptionsError(`handledRequests must be 'request', 'key', 'bits' or 'store' (got ${JSON.stringify(mode)}); the default is 'key'`);
  }
  // A misspelt sizing is named first: it is the more useful error.
  checkKnownOptions<HandledBloomOptions>('handledBloom', bloom, { expectedRequests: true, falsePositiveRate: true });
  if (bloom !== undefined && mode !== 'bits') {
    throw new InvalidOptionsError(`handledBloom sizes the 'bits' mode's filter; set handledRequests: 'bits' or leave handledBloom out (handledRequests is '${mode}')`);
  }
  if (mode !== 'bits') return { mode, indexLoad: HANDLED_INDEX_LOAD };
  const expectedRequests = integerOption('handledBloom.expectedRequests', bloom?.expectedRequests);
  const falsePositiveRate = numberOption('handledBloom.falsePositiveRate', bloom?.falsePositiveRate);
  const shape = handledBloomShape(expectedRequests, falsePositiveRate);
  const bytes = (shape.blockBits / 8) * shape.blocks;
  // The filter is allocated whole when the queue is created, in one script: a size the Redis cannot hold would
  // take the server down (or leave half a filter behind at maxmemory) instead of failing here.
  if (bytes > MAX_HANDLED_FILTER_BYTES) {
    throw new InvalidOptionsError(
      `handledBloom: ${expectedRequests.toLocaleString('en-US')} expected requests at a false-positive rate of ${falsePositiveRate} need a ` +
        `${(bytes / 2 ** 30).toFixed(1)} GiB filter, allocated in Redis at once; the most one queue allocates is ` +
        `${MAX_HANDLED_FILTER_BYTES / 2 ** 30} GiB. Raise falsePositiveRate or lower expectedRequests`,
    );
  }
  return { mode, indexLoad: HANDLED_INDEX_LOAD, bloom: { ...shape, expectedRequests, falsePositiveRate } };
}

/** The largest 'bits' filter one queue (or one shard) allocates: 8 GiB, enough for 2.3 billion handled requests at
 * 1e-6 (the seed crawl's 700M need 2.3 GiB). */
export const MAX_HANDLED_FILTER_BYTES = 8 * 2 ** 30;

/**
 * The handled store of one of S shards: a 'bits' filter sized for the shard's share of the expected count (the
 * shard rule spreads requests over the shards), so S shards together cost what one unsharded queue would.
 * @param settings - the queue's handled store settings
 * @param shards - S
 */
export function shardHandledStore(settings: HandledStoreSettings, shards: number): HandledStoreSettings {
  if (!settings.bloom || shards <= 1) return settings;
  const { expectedRequests, falsePositiveRate } = settings.bloom;
  const share = Math.ceil(expectedRequests / shards);
  return { ...settings, bloom: { ...handledBloomShape(share, falsePositiveRate), expectedRequests: share, falsePositiveRate } };
}

/** ARGV[4..9] of create-queue.lua. @param settings - the handled store */
export function createQueueArgs(settings: HandledStoreSettings): string[] {
  const b = settings.bloom;
  return [settings.mode, String(settings.indexLoad), b ? String(b.blockBits) : '', b ? String(b.hashes) : '', b ? String(b.blocks) : '', b ? `${b.expectedRequests}:${b.falsePositiveRate}` : ''];
}
