import addRequests from '../lua/add-requests.lua';
import createQueue from '../lua/create-queue.lua';
import deadLetterRequest from '../lua/dead-letter-request.lua';
import deleteRequest from '../lua/delete-request.lua';
import deleteRequestLock from '../lua/delete-request-lock.lua';
import listAndLockHead from '../lua/list-and-lock-head.lua';
import listHead from '../lua/list-head.lua';
import prolongRequestLock from '../lua/prolong-request-lock.lua';
import purgeQueue from '../lua/purge-queue.lua';
import queueStats from '../lua/queue-stats.lua';
import releaseLocks from '../lua/release-locks.lua';
import requeueDeadLetter from '../lua/requeue-dead-letter.lua';
import updateRequest from '../lua/update-request.lua';
import { COMMAND_SUFFIX } from '../version.js';
import type { RedisConnection } from './connection.js';

/** Every Lua script of the package, by operation (one file per operation in `src/lua/`). */
const SCRIPTS = {
  addRequests,
  createQueue,
  deadLetterRequest,
  deleteRequest,
  deleteRequestLock,
  listAndLockHead,
  listHead,
  prolongRequestLock,
  purgeQueue,
  queueStats,
  releaseLocks,
  requeueDeadLetter,
  updateRequest,
} as const;

/** Name of a queue operation script. */
export type ScriptName = keyof typeof SCRIPTS;

/** An argument of a script call; Buffers are passed byte for byte. */
export type ScriptArg = string | number | Buffer;

const defined = new WeakSet<object>();

/** The ioredis command name of a script: `rq` + operation + version, e.g. `rqAddRequests_0_1_0`.
 * @param name - the operation */
export function commandName(name: ScriptName): string {
  return `rq${name[0]!.toUpperCase()}${name.slice(1)}${COMMAND_SUFFIX}`;
}

function ensureDefined(redis: RedisConnection): void {
  if (defined.has(redis)) return;
  for (const [name, lua] of Object.entries(SCRIPTS) as Array<[ScriptName, string]>) {
    // No numberOfKeys: the key count is the first argument, so plans can add keys. ioredis sends EVALSHA and falls
    // back to EVAL after NOSCRIPT (a restarted or failed-over Redis).
    if (typeof (redis as unknown as Record<string, unknown>)[commandName(name)] !== 'function') {
      redis.defineCommand(commandName(name), { lua });
    }
  }
  defined.add(redis);
}

/**
 * Runs a queue script.
 *
 * @param redis - the connection
 * @param name - the operation
 * @param keys - KEYS of the script (all on one Cluster slot)
 * @param args - ARGV of the script
 * @returns the raw reply
 */
export async function runScript(redis: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown> {
  ensureDefined(redis);
  const command = (redis as unknown as Record<string, (...a: ScriptArg[]) => Promise<unknown>>)[commandName(name)]!;
  return command.call(redis, keys.length, ...keys, ...args);
}

/**
 * Runs a queue script and returns bulk replies as Buffers (ioredis' `<command>Buffer` variant), for replies that
 * carry stored bytes: a request written by another program may not be UTF-8, and decoding it would alter it.
 *
 * @param redis - the connection
 * @param name - the operation
 * @param keys - KEYS of the script
 * @param args - ARGV of the script
 * @returns the raw reply, bulk strings as Buffers
 */
export async function runScriptBuffer(redis: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown> {
  ensureDefined(redis);
  const command = (redis as unknown as Record<string, (...a: ScriptArg[]) => Promise<unknown>>)[`${commandName(name)}Buffer`]!;
  return command.call(redis, keys.length, ...keys, ...args);
}
