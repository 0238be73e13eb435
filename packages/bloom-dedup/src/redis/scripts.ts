import bloomAdd from '../lua/bloom_add.lua';
import bloomHas from '../lua/bloom_has.lua';
import bloomPrealloc from '../lua/bloom_prealloc.lua';
import metaOpen from '../lua/meta_open.lua';
import setAdd from '../lua/set_add.lua';
import { IncompatibleFilterError } from '../errors/incompatible-filter-error.js';
import { RedisScriptError } from '../errors/redis-script-error.js';
import type { RedisConnection } from './connection.js';

/** Package version carried by every script name, so two versions on one Redis never run each other's code. */
export const SCRIPT_VERSION = '0_1_0';

const SCRIPTS = {
  bloomAdd: { name: `bdBloomAdd_${SCRIPT_VERSION}`, lua: bloomAdd },
  bloomHas: { name: `bdBloomHas_${SCRIPT_VERSION}`, lua: bloomHas },
  bloomPrealloc: { name: `bdBloomPrealloc_${SCRIPT_VERSION}`, lua: bloomPrealloc },
  metaOpen: { name: `bdMetaOpen_${SCRIPT_VERSION}`, lua: metaOpen },
  setAdd: { name: `bdSetAdd_${SCRIPT_VERSION}`, lua: setAdd },
} as const;

/** Name of one of this package's Lua operations. */
export type ScriptName = keyof typeof SCRIPTS;

type ScriptFn = (numKeys: number, ...args: (string | number)[]) => Promise<unknown>;

/** Registers the scripts on a connection once (ioredis `defineCommand`: EVALSHA with a NOSCRIPT fallback). */
function ensureScripts(redis: RedisConnection): void {
  for (const { name, lua } of Object.values(SCRIPTS)) {
    if (typeof (redis as unknown as Record<string, unknown>)[name] !== 'function') redis.defineCommand(name, { lua });
  }
}

/**
 * Runs one script and maps its error replies to typed errors (the one place that does).
 * @param where - the key the caller works on, for messages
 */
export async function runScript(
  redis: RedisConnection,
  script: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
  where: string,
): Promise<unknown> {
  ensureScripts(redis);
  const fn = (redis as unknown as Record<string, ScriptFn>)[SCRIPTS[script].name] as ScriptFn;
  try {
    return await fn.call(redis, keys.length, ...keys, ...args);
  } catch (error) {
    throw mapScriptError(script, error, where);
  }
}

/** Maps a Redis error reply of a script to this package's error classes. */
export function mapScriptError(script: ScriptName, error: unknown, where: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const incompatible = /INCOMPATIBLE_FILTER (\S+) (\S+) (\S+)/.exec(message);
  if (incompatible) {
    return new IncompatibleFilterError(where, incompatible[1] as string, incompatible[2] as string, incompatible[3] as string);
  }
  return new RedisScriptError(SCRIPTS[script].name, message, { cause: error });
}

/** Script replies are arrays of 0/1 integers (RESP2 and RESP3 alike); booleans are accepted too. */
export function toBooleans(reply: unknown): boolean[] {
  return (reply as unknown[]).map((v) => v === 1 || v === true || v === '1');
}
