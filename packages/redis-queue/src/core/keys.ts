import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** The Redis keys of one request queue. All share the hash tag `{<keyPrefix>:rq:<queueId>}`, so every script stays
 * on one Cluster slot. */
export interface QueueKeys {
  /** The hash tag, braces included: `{crawlee:rq:my-crawl}`. */
  readonly tag: string;
  /** HASH: id, name, createdAt, modifiedAt, counters (total, pending, handled), `format` (2),
   * order counters (`fseq`: forefront sequence, `qhead`: absolute position of the FIFO list's head). */
  readonly meta: string;
  /** HASH: request id → format-2 record (`core/record-format.ts`) of every unhandled request (available or
   * locked), so "present" is HEXISTS data. A handled request leaves it for {@link QueueKeys.done}. */
  readonly data: string;
  /** LIST: ids of FIFO requests, oldest first; the entry at absolute position p has queue order p + 1. An entry of
   * an id counted in {@link QueueKeys.stale} is skipped; an empty entry is a placeholder that only holds a
   * position. */
  readonly fifo: string;
  /** LIST: `"<seq> <id>"` of forefront requests, newest first; queue order -seq. */
  readonly front: string;
  /** Prefix of the `'key'` mode's index buckets: `<ixPrefix><b>` is a HASH id → '' (linear hashing; bucket count
   * 2^hxL + hxS in meta). */
  readonly ixPrefix: string;
  /** Prefix of the `'bits'` mode's Bloom blocks: `<hbPrefix><i>` is a STRING of hbBits bits (hbBlocks in meta). */
  readonly hbPrefix: string;
  /** HASH: request id → record of a failed request kept as handled in the `'key'` / `'bits'` modes (which keep no
   * request of their own), for `failed()` / `requeueFailed`. */
  readonly failedKept: string;
  /** ZSET: request id → lock expiry in ms (Redis time). */
  readonly locks: string;
  /** HASH: request id → clientKey of the lock owner. */
  readonly owner: string;
  /** HASH: dead-letter id → raw bytes of an entry that could not be read. */
  readonly dead: string;
  /** HASH: dead-letter id → JSON `{ reason, source, at, stalls? }`. */
  readonly deadInfo: string;
  /** ZSET: request id → when it failed for good (ms, Redis time): the failed index. Passed after the twelve. */
  readonly failed: string;
  /** HASH: request id → JSON of a failed request that left the queue (`failedRequests: 'forget'`). */
  readonly failedData: string;
  /** ZSET: producer lease id → lease expiry in ms (Redis time); a live lease keeps the queue open. */
  readonly leases: string;
  /** HASH: request id → lock expiries counted while it was being processed (the `maxStalls` option); passed after
   * the twelve as KEYS[13] to the scripts that count, reset or drop them. */
  readonly stalls: string;
  /** HASH: lock owner (clientKey) → id of the request with a stall counted that it holds locked; one per owner at
   * a time, so a killer and its old neighbours are never started together again (`maxStalls`). KEYS[15] of
   * list-and-lock-head.lua; an entry counts only while that owner still holds that lock. */
  readonly suspects: string;
  /** ZSET: lock owner (clientKey) → heartbeat expiry in ms (Redis time), written by each worker's heartbeat
   * (`lua/heartbeat.lua`); KEYS[16] of the lock scripts, which keep a live owner's locks and return a gone one's. */
  readonly live: string;
  /** STRING with a TTL: the write each `WAIT` of the `durability` option follows (never read). */
  readonly waitProbe: string;
  /** ZSET: request id → queue order, for available requests that are in neither list: returned (lock expired,
   * released, reclaimed) or moved to the head while available. Bounded by returned requests, not by the queue. */
  readonly back: string;
  /** HASH: request id → queue order of a locked request, so it returns at its original place (contract 4). */
  readonly held: string;
  /** HASH: request id → number of list entries of that id that are no longer its place (it was deleted, handled,
   * dead-lettered or moved while available); while counted, its place is `back` or `held`, never a list. */
  readonly stale: string;
  /** HASH: request id → record of a handled request (its `handledAt` set): the handled store of the
   * `'request'` mode (`src/lua/includes/handled-store.lua`). */
  readonly done: string;
  /** The twelve keys in the order every queue script expects (KEYS[1..12]). */
  readonly all: readonly string[];
}

const FORBIDDEN = /[{}]/;

/**
 * Checks a key prefix or queue id: braces would break the hash tag, and an empty value would merge queues.
 *
 * @param what - name of the option, for the message
 * @param value - the value to check
 * @throws {@link InvalidOptionsError} when the value is empty or contains `{` or `}`
 */
export function assertKeyPart(what: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0 || FORBIDDEN.test(value)) {
    throw new InvalidOptionsError(
      `${what} must be a non-empty string without "{" or "}" (got ${JSON.stringify(value)}); braces would break the ` +
        'Redis Cluster hash tag of the queue',
    );
  }
}

/** The namespaces a key prefix is followed by: `{<prefix>:rq:<queue>}`, `{<prefix>:ds:<dataset>}`. */
const NAMESPACES = ['rq', 'ds'] as const;

/**
 * Checks a key prefix: a valid key part ({@link assertKeyPart}) that cannot be confused with a namespace marker.
 * Keys are `<prefix>:<ns>:<name>` with `ns` in `rq`/`ds`; a prefix that contains `:rq:` / `:ds:` or ends with `:rq`
 * / `:ds` makes two pairs meet (prefix `x` + queue `rq:a` and prefix `x:rq` + queue `a` are both `{x:rq:rq:a}`).
 * With such prefixes rejected, `<prefix>:<ns>:<name>` has exactly one reading: the marker's first occurrence ends
 * the prefix (`:rq:` only overlaps itself by its `:`, which is the "ends with `:rq`" case). Every prefix that
 * was not ambiguous keeps its keys; names stay free.
 *
 * @param what - name of the option, for the message (`keyPrefix`, `--key-prefix`)
 * @param value - the prefix
 * @throws {@link InvalidOptionsError} for an empty prefix, braces, or a namespace marker inside or at the end
 */
export function assertKeyPrefix(what: string, value: string): void {
  assertKeyPart(what, value);
  const marker = NAMESPACES.find((ns) => value.includes(`:${ns}:`) || value.endsWith(`:${ns}`));
  if (marker !== undefined) {
    throw new InvalidOptionsError(
      `${what} ${JSON.stringify(value)} contains the namespace marker ":${marker}:" or ends with ":${marker}"; its keys could ` +
        `be those of another (keyPrefix, name) pair (prefix "x:rq" + queue "a" and prefix "x" + queue "rq:a" are the ` +
        `same keys). Pick a prefix without ":rq" / ":ds" segments, e.g. ${JSON.stringify(value.replace(/:(rq|ds)(?=:|$)/g, '-$1'))}`,
    );
  }
}

/**
 * The keys of the request queue `queueId` under `keyPrefix`.
 *
 * @param keyPrefix - e.g. `'crawlee'`
 * @param queueId - the queue id (for named queues, the name)
 * @returns the key set
 * @throws {@link InvalidOptionsError} for an empty prefix or id, one with braces, or an ambiguous prefix
 *   ({@link assertKeyPrefix})
 */
export function queueKeys(keyPrefix: string, queueId: string): QueueKeys {
  assertKeyPrefix('keyPrefix', keyPrefix);
  assertKeyPart('queue name', queueId);
  const tag = `{${keyPrefix}:rq:${queueId}}`;
  const k = (suffix: string) => `${tag}:${suffix}`;
  const keys = {
    tag,
    meta: k('meta'),
    data: k('data'),
    fifo: k('fifo'),
    front: k('front'),
    ixPrefix: k('ix:'),
    hbPrefix: k('hb:'),
    failedKept: k('failedkept'),
    locks: k('locks'),
    owner: k('owner'),
    dead: k('dead'),
    deadInfo: k('deadinfo'),
    failed: k('failed'),
    failedData: k('faileddata'),
    leases: k('leases'),
    stalls: k('stalls'),
    suspects: k('suspects'),
    live: k('live'),
    waitProbe: k('wait-probe'),
    back: k('back'),
    held: k('held'),
    stale: k('stale'),
    done: k('done'),
  };
  const all = [keys.meta, keys.data, keys.fifo, keys.front, keys.locks, keys.owner, keys.dead, keys.deadInfo, keys.back, keys.held, keys.stale, keys.done];
  return { ...keys, all };
}

/** SET of the ids of every queue under `keyPrefix` (for `requestQueues().list()`; never read on a hot path).
 * @param keyPrefix - e.g. `'crawlee'` */
export function queueIndexKey(keyPrefix: string): string {
  return `${keyPrefix}:rq:index`;
}

/** The scrapy-redis start-URL feed key of a queue: `<name>:start_urls`.
 * @param name - the queue name */
export function defaultStartUrlsKey(name: string): string {
  return `${name}:start_urls`;
}
