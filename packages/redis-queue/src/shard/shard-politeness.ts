import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';
import { shardKeyOf, type ShardBy } from './shard-of.js';

/*
 * Politeness on a sharded queue. A host's politeness state (its queue, next allowed time, in-flight count) lives in
 * one shard, so it stays fleet-wide only when every request of the host lands in that shard. The shard rule is a
 * function of the uniqueKey (so dedup stays atomic), politeness of the URL's host; the two agree when the shard is
 * the uniqueKey's host and the uniqueKey's host is the URL's host (Crawlee's default uniqueKey, the normalized URL).
 * So: shardBy 'host' with the default hostKey only, and a request whose uniqueKey is not a URL of its own host
 * (a custom key, a Scrapy fingerprint) is refused on a polite sharded queue rather than polite per shard.
 */

/**
 * Checks that politeness and `shards` > 1 can be combined.
 * @throws {@link InvalidOptionsError} for `shardBy: 'uniqueKey'` or a custom `hostKey` with politeness
 */
export function checkShardedPoliteness(shards: number, shardBy: ShardBy, customHostKey: boolean): void {
  if (shards <= 1) return;
  if (shardBy !== 'host' || customHostKey) {
    throw new InvalidOptionsError(
      'politeness with shards > 1 needs shardBy: "host" and the default hostKey: a host\'s politeness state lives in ' +
        'the shard of its host, so every request of a host must land there; drop shardBy/hostKey or use shards: 1',
    );
  }
}

/**
 * Checks that a request's shard is the shard of its host (see above), before anything is written.
 * @throws {@link InvalidRequestError} when the uniqueKey's host is not the URL's host
 */
export function checkPoliteShard(request: { url?: unknown; uniqueKey?: unknown }): void {
  const { url, uniqueKey } = request;
  if (typeof url !== 'string' || typeof uniqueKey !== 'string') return;
  let urlHost: string | undefined;
  try {
    urlHost = new URL(url).hostname;
  } catch {
    return; // encodeRequest reports a bad URL
  }
  if (shardKeyOf(uniqueKey, 'host') !== `host:${urlHost}`) {
    throw new InvalidRequestError(
      `request ${url}: on a polite sharded queue the uniqueKey must be a URL of the request's own host ` +
        `(got ${JSON.stringify(uniqueKey.slice(0, 80))}), so the host's requests and politeness state share one shard; ` +
        'keep Crawlee\'s default uniqueKey, or use shards: 1',
    );
  }
}

/** The shard key of a politeness host key (`example.com`, `example.com:8080`, `[::1]:8080`): its host name. */
export function shardKeyOfHost(host: string): string {
  try {
    return `host:${new URL(`http://${host}/`).hostname}`;
  } catch {
    return `host:${host}`;
  }
}

/**
 * One queue's politeness stats from its shards' (each host is in one shard): counts add up, the longest wait is the
 * longest of any shard, in-flight hosts are the `top` busiest over all shards.
 */
export function mergePolitenessStats(parts: readonly PolitenessStats[], top: number): PolitenessStats {
  const [first] = parts;
  const inFlight = Object.fromEntries(
    parts
      .flatMap((p) => Object.entries(p.inFlight))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top),
  );
  return {
    enabled: first?.enabled ?? false,
    minDelaySecs: first?.minDelaySecs ?? 0,
    maxConcurrencyPerHost: first?.maxConcurrencyPerHost ?? 0,
    hosts: parts.reduce((n, p) => n + p.hosts, 0),
    hostsWaiting: parts.reduce((n, p) => n + p.hostsWaiting, 0),
    longestWaitSecs: Math.max(0, ...parts.map((p) => p.longestWaitSecs)),
    delayed: parts.reduce((n, p) => n + p.delayed, 0),
    inFlight,
    waiting: Object.fromEntries(
      parts
        .flatMap((p) => Object.entries(p.waiting))
        .sort((a, b) => b[1] - a[1])
        .slice(0, top),
    ),
  };
}
