import { createHash } from 'node:crypto';

// crawlee-redis-queue shards a queue with this rule, and crawlee-bloom-dedup routes a split dedup store's keys with
// it (the enqueue-filter seam's split, docs/enqueue-filter-seam.md): one copy, so the two cannot drift apart.

/** What a request's shard is a function of: its uniqueKey's host (default) or the whole uniqueKey. */
export type ShardBy = 'host' | 'uniqueKey';

/**
 * The part of a uniqueKey its shard is computed from.
 *
 * The rule (the shard is a pure function of the uniqueKey, so two requests with one uniqueKey always land in the same
 * shard, and dedup by uniqueKey stays one atomic script in one shard):
 * - `shardBy: 'host'`: when the uniqueKey parses as an absolute http(s) URL (Crawlee's default uniqueKey is the
 *   normalized URL), its host name (lower case, IDNA as WHATWG `URL` gives it, port dropped); so one host's requests,
 *   and the per-host state kept with them, stay in one shard. Any other uniqueKey (a Scrapy fingerprint from
 *   `withScrapyFingerprint`, a custom key) is taken whole: requests keyed by fingerprint spread over the shards by
 *   fingerprint, not by host.
 * - `shardBy: 'uniqueKey'`: always the whole uniqueKey (even spread when a few hosts dominate a crawl).
 *
 * The URL of the request is never looked at: two requests with one uniqueKey and different URLs must still meet.
 *
 * @param uniqueKey - the request's uniqueKey
 * @param by - the rule
 */
export function shardKeyOf(uniqueKey: string, by: ShardBy): string {
  if (by === 'host' && /^https?:\/\//i.test(uniqueKey)) {
    try {
      const host = new URL(uniqueKey).hostname;
      if (host) return `host:${host}`;
    } catch {
      // not a URL: the whole uniqueKey
    }
  }
  return `key:${uniqueKey}`;
}

/**
 * The shard of a request: the first 48 bits of SHA-1 of {@link shardKeyOf}, modulo `shards`. SHA-1 rather than a
 * faster non-cryptographic hash because it is in every Node and every language an operator's tooling may be written
 * in, so the shard of a uniqueKey can be computed outside this package.
 *
 * @param uniqueKey - the request's uniqueKey
 * @param shards - the queue's shard count (1: always 0)
 * @param by - the rule ({@link shardKeyOf})
 * @returns 0 to shards-1
 */
export function shardOf(uniqueKey: string, shards: number, by: ShardBy): number {
  return shardOfKey(shardKeyOf(uniqueKey, by), shards);
}

/** The shard of a shard key ({@link shardKeyOf}): the first 48 bits of its SHA-1, modulo `shards`. */
export function shardOfKey(key: string, shards: number): number {
  if (shards <= 1) return 0;
  return createHash('sha1').update(key).digest().readUIntBE(0, 6) % shards;
}
