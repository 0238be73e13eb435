import { hasHashTag, shardOf, type ShardBy } from '@crawlee-distributed/redis-kit';
import type { EnqueueFilterShardLayout } from '@crawlee-distributed/redis-kit/seam';
import { InvalidDedupOptionsError } from '../../errors/invalid-dedup-options-error.js';

/** Most parts a store splits into (crawlee-redis-queue's largest `shards`). */
const MAX_PARTS = 256;

/** How a split store is laid out: part s lives in `tags[s]` (shard s's hash tag), a key's part is its shard. */
export interface SplitLayout {
  /** Each part's hash tag, braces included (the queue's shard tags). */
  tags: string[];
  /** The queue's shard rule. */
  shardBy: ShardBy;
}

/**
 * Checks a layout handed over by a queue (through the seam) or read back from Redis: both are input.
 * @param layout - the layout
 * @param where - for the message
 * @returns the layout, copied
 * @throws {@link InvalidDedupOptionsError} for a layout that is not 2 to 256 distinct hash tags and a known rule
 */
export function checkSplitLayout(layout: EnqueueFilterShardLayout | undefined, where: string): SplitLayout {
  const tags = layout?.tags;
  const ok =
    Array.isArray(tags) &&
    tags.length >= 2 &&
    tags.length <= MAX_PARTS &&
    tags.every((t) => typeof t === 'string' && t.startsWith('{') && t.endsWith('}') && hasHashTag(t)) &&
    new Set(tags).size === tags.length &&
    (layout?.shardBy === 'host' || layout?.shardBy === 'uniqueKey');
  if (!ok) {
    throw new InvalidDedupOptionsError(
      `${where}: a split needs 2 to ${MAX_PARTS} distinct hash tags ("{...}") and shardBy 'host' or 'uniqueKey', got ${JSON.stringify(layout)?.slice(0, 200)}`,
    );
  }
  return { tags: [...tags], shardBy: layout.shardBy };
}

/** One string per layout, to compare two (the form recorded in Redis: `partTags`). */
export function tagsJson(layout: SplitLayout): string {
  return JSON.stringify(layout.tags);
}

/** @returns true when both layouts put every key in the same part at the same keys */
export function sameLayout(a: SplitLayout, b: SplitLayout): boolean {
  return a.shardBy === b.shardBy && tagsJson(a) === tagsJson(b);
}

/**
 * The base key of part `s` of the store at `key`: `<tag>:dedup:<key>`. The tag comes first, so every key the part
 * derives from it (a Bloom part's `:meta` and `:bits:<i>`, a set part's `:stats`) is in shard s's slot; the queue's
 * own keys under that tag never contain `:dedup:`.
 * @param tag - the shard's hash tag
 * @param key - the store's key
 */
export function partKey(tag: string, key: string): string {
  return `${tag}:dedup:${key}`;
}

/** The part a dedup key belongs to: its shard under the queue's rule. @param layout - the split @param key - dedup key */
export function partOf(layout: SplitLayout, key: string): number {
  return shardOf(key, layout.tags.length, layout.shardBy);
}

/** For messages: `split into 12 parts (shardBy host) over {p:rq:a#0.3}, …`. */
export function describeLayout(layout: SplitLayout): string {
  return `split into ${layout.tags.length} parts (shardBy ${layout.shardBy}) over ${layout.tags[0]}, …, ${layout.tags[layout.tags.length - 1]}`;
}
