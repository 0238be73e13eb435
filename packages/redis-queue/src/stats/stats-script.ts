import type { RedisConnection } from '../core/connection.js';
import { runScript, type ScriptArg } from '../core/scripts.js';

/**
 * Runs publish-worker-stats.lua (see its header for KEYS and ARGV) through the package's script registry. It never
 * runs on the request path: the publisher calls it from its background timer.
 *
 * @param redis - the connection
 * @param keys - workers ZSET, worker HASH, crawl HASH (one hash tag)
 * @param args - ARGV
 * @returns `[now, startedAt]` in ms, Redis time
 */
export async function runPublishScript(redis: RedisConnection, keys: readonly string[], args: readonly ScriptArg[]): Promise<[number, number]> {
  const reply = (await runScript(redis, 'publishWorkerStats', keys, args)) as unknown[];
  return [Number(reply[0]), Number(reply[1])];
}
