import { createScriptRegistry, mapReplyError, type CrawleeRedisError, type ReplyErrorFactory } from '@crawlee-distributed/redis-kit';
import bloomAdd from '../lua/bloom_add.lua';
import bloomHas from '../lua/bloom_has.lua';
import bloomPrealloc from '../lua/bloom_prealloc.lua';
import metaOpen from '../lua/meta_open.lua';
import setAdd from '../lua/set_add.lua';
import splitClaim from '../lua/split_claim.lua';
import type { DedupError } from '../errors/dedup-error.js';
import { IncompatibleFilterError } from '../errors/incompatible-filter-error.js';
import { RedisScriptError } from '../errors/redis-script-error.js';
import { PACKAGE_VERSION } from '../version.js';
import type { RedisConnection } from './connection.js';
import { ERROR_REPLY, KEY_REPLY, type ErrorReplyName } from './reply-codes.js';

const registry = createScriptRegistry({
  prefix: 'bd',
  version: PACKAGE_VERSION,
  scripts: { bloomAdd, bloomHas, bloomPrealloc, metaOpen, setAdd, splitClaim },
});

/** Name of one of this package's Lua operations. */
export type ScriptName = 'bloomAdd' | 'bloomHas' | 'bloomPrealloc' | 'metaOpen' | 'setAdd' | 'splitClaim';

/** The ioredis command name of a script: `bd` + operation + version, e.g. `bdBloomAdd_0_1_0`.
 * @param name - the operation */
export function commandName(name: ScriptName): string {
  return registry.commandName(name);
}

/**
 * Runs one script and maps its error replies to typed errors (the one place that does).
 * @param redis - the connection
 * @param script - the operation
 * @param keys - KEYS of the script
 * @param args - ARGV of the script
 * @param where - the key the caller works on, for messages
 * @returns the raw reply
 */
export async function runScript(
  redis: RedisConnection,
  script: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
  where: string,
): Promise<unknown> {
  try {
    return await registry.run(redis, script, keys, args);
  } catch (error) {
    throw mapScriptError(script, error, where);
  }
}

/** One error class per reply code of src/lua/reply-codes.json; a code without an entry does not compile. */
const BY_NAME: Record<ErrorReplyName, (where: string) => ReplyErrorFactory<DedupError>> = {
  INCOMPATIBLE_FILTER: (where) => (detail, cause) => {
    const [field = '?', stored = '?', requested = '?'] = detail.slice(detail.indexOf(': ') + 2).split(' ');
    return new IncompatibleFilterError(where, field, stored, requested, { cause });
  },
};

/**
 * Maps a Redis error reply of a script to this package's error classes.
 * @param script - the operation that failed
 * @param error - what ioredis rejected with
 * @param where - the key the caller works on
 * @returns the typed error
 */
export function mapScriptError(script: ScriptName, error: unknown, where: string): DedupError | CrawleeRedisError {
  const factories = Object.fromEntries((Object.keys(BY_NAME) as ErrorReplyName[]).map((name) => [ERROR_REPLY[name], BY_NAME[name](where)]));
  return mapReplyError(error, commandName(script), factories, (_detail, cause) =>
    new RedisScriptError(commandName(script), error instanceof Error ? error.message : String(error), { cause }),
  );
}

/** Script replies are arrays of per-key codes (RESP2 and RESP3 alike); booleans are accepted too.
 * @param reply - the reply
 * @returns true where the code is `KEY_REPLY.NEW` (for bloom_has: `HAS_REPLY.PRESENT`, the same value) */
export function toBooleans(reply: unknown): boolean[] {
  return (reply as unknown[]).map((v) => v === true || Number(v) === KEY_REPLY.NEW);
}
