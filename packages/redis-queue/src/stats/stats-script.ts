import publishWorkerStats from '../lua/publish-worker-stats.lua';
import type { RedisConnection } from '../redis/connection.js';
import type { ScriptArg } from '../redis/scripts.js';
import { COMMAND_SUFFIX } from '../version.js';

// Registered here rather than in src/redis/scripts.ts: the stats module is self-contained (one hook in the queue
// client), and its script never runs on the request path. The name carries the package version like every script.
const COMMAND = `rqPublishWorkerStats${COMMAND_SUFFIX}`;
const defined = new WeakSet<object>();

/**
 * Runs publish-worker-stats.lua (see its header for KEYS and ARGV).
 *
 * @param redis - the connection
 * @param keys - workers ZSET, worker HASH, crawl HASH (one hash tag)
 * @param args - ARGV
 * @returns `[now, startedAt]` in ms, Redis time
 */
export async function runPublishScript(redis: RedisConnection, keys: readonly string[], args: readonly ScriptArg[]): Promise<[number, number]> {
  if (!defined.has(redis)) {
    if (typeof (redis as unknown as Record<string, unknown>)[COMMAND] !== 'function') redis.defineCommand(COMMAND, { lua: publishWorkerStats });
    defined.add(redis);
  }
  const command = (redis as unknown as Record<string, (...a: ScriptArg[]) => Promise<unknown>>)[COMMAND]!;
  const reply = (await command.call(redis, keys.length, ...keys, ...args)) as unknown[];
  return [Number(reply[0]), Number(reply[1])];
}
