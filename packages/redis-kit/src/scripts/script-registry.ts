import { permissionErrorOf } from '../connection/classify-redis-error.js';
import { isCluster, type RedisConnection } from '../connection/redis-connection.js';

/** An argument of a script call; Buffers are passed byte for byte. */
export type ScriptArg = string | number | Buffer;

type CommandFn = (...args: ScriptArg[]) => Promise<unknown>;

/** Key counts that get a fixed-numberOfKeys command on a Cluster (queue scripts use 1 to about 20 keys; a call with
 * more keys uses the variable form). */
const FIXED_KEY_COUNTS = 32;

/** The Lua scripts of one package, registered on connections with ioredis `defineCommand`. */
export interface ScriptRegistry<Name extends string> {
  /** The ioredis command name of a script: prefix + operation + package version, e.g. `rqAddRequests_0_2_0`.
   * @param name - the operation */
  commandName(name: Name): string;
  /** Runs a script; bulk replies are strings.
   * @param redis - the connection
   * @param name - the operation
   * @param keys - KEYS (all on one Cluster slot)
   * @param args - ARGV
   * @throws RedisPermissionError when the user's ACL refuses the script, a command in it or one of its keys */
  run(redis: RedisConnection, name: Name, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown>;
  /** Runs a script with bulk replies as Buffers (ioredis' `<command>Buffer`), for replies that carry stored bytes.
   * @param redis - the connection
   * @param name - the operation
   * @param keys - KEYS
   * @param args - ARGV */
  runBuffer(redis: RedisConnection, name: Name, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown>;
  /** Defines every script on a connection now (done by the first call otherwise). Call it before the connection's
   * first command: with auto-pipelining, a pipeline copies the connection's commands when it is created, so a script
   * defined while a pipeline is pending is missing from it ("pipeline[functionName] is not a function").
   * @param redis - the connection */
  define(redis: RedisConnection): void;
}

/** Options of {@link createScriptRegistry}. */
export interface ScriptRegistryOptions<Name extends string> {
  /** Short package prefix of every command name, e.g. `'rq'`. */
  prefix: string;
  /** The package's real version (`PACKAGE_VERSION`, injected from package.json at build time). */
  version: string;
  /** Operation name to Lua source (includes already resolved by the build). */
  scripts: Readonly<Record<Name, string>>;
}

/**
 * A registry of one package's scripts. Command names carry the package version, so two versions of a package on
 * one connection (a rolling upgrade) never run each other's Lua. Scripts are defined without `numberOfKeys`: the
 * key count is the first argument, so a call can add keys (enqueue-filter plans). ioredis sends EVALSHA and falls
 * back to EVAL on NOSCRIPT, so a restarted or failed-over Redis (empty script cache) needs nothing from us.
 *
 * @param options - prefix, version and scripts
 * @returns the registry
 */
export function createScriptRegistry<Name extends string>(options: ScriptRegistryOptions<Name>): ScriptRegistry<Name> {
  const suffix = `_${options.version.replace(/\W/g, '_')}`;
  const names = new Map<Name, string>();
  for (const name of Object.keys(options.scripts) as Name[]) {
    names.set(name, `${options.prefix}${name[0]!.toUpperCase()}${name.slice(1)}${suffix}`);
  }
  const defined = new WeakSet<object>();
  const ensureDefined = (redis: RedisConnection): void => {
    if (defined.has(redis)) return;
    for (const [name, command] of names) {
      // Another copy of this package (ESM and CJS) may have defined it on this connection already.
      if (typeof (redis as unknown as Record<string, unknown>)[command] !== 'function') {
        redis.defineCommand(command, { lua: options.scripts[name] });
      }
    }
    defined.add(redis);
  };
  // On a Cluster, ioredis' auto-pipelining groups a command by the slot of its first argument, which for a command
  // defined without numberOfKeys is the key count: calls on keys of different masters then share one pipeline and
  // fail ("All keys in the pipeline should belong to the same slots allocation group"). So on a Cluster each key
  // count up to FIXED_KEY_COUNTS gets its own command with a fixed numberOfKeys (same Lua, same SHA), whose first
  // argument is the first key. All are defined at once, before the first call: an auto-pipeline copies the
  // connection's commands when it is created, so a command defined later would be missing from it.
  const fixedDefined = new WeakSet<object>();
  const ensureFixed = (redis: RedisConnection): void => {
    if (fixedDefined.has(redis)) return;
    for (const [name, command] of names) {
      for (let n = 1; n <= FIXED_KEY_COUNTS; n++) {
        if (typeof (redis as unknown as Record<string, unknown>)[`${command}K${n}`] !== 'function') {
          redis.defineCommand(`${command}K${n}`, { lua: options.scripts[name], numberOfKeys: n });
        }
      }
    }
    fixedDefined.add(redis);
  };
  const call = (redis: RedisConnection, name: Name, keys: readonly string[], args: readonly ScriptArg[], buffers: boolean) => {
    const cluster = isCluster(redis) && keys.length >= 1 && keys.length <= FIXED_KEY_COUNTS;
    if (cluster) ensureFixed(redis);
    else ensureDefined(redis);
    const base = cluster ? `${names.get(name)!}K${keys.length}` : names.get(name)!;
    const command = buffers ? `${base}Buffer` : base;
    const fn = (redis as unknown as Record<string, CommandFn>)[command]!;
    const argv = cluster ? [...keys, ...args] : [keys.length, ...keys, ...args];
    // NOPERM names neither the key nor the script; we know both (EVALSHA falls back to EVAL, both need +@scripting).
    return fn.call(redis, ...argv).catch((error: unknown) => {
      throw permissionErrorOf(error, `script ${command}`, { keys }) ?? error;
    });
  };
  return {
    commandName: (name) => names.get(name)!,
    run: (redis, name, keys, args) => call(redis, name, keys, args, false),
    runBuffer: (redis, name, keys, args) => call(redis, name, keys, args, true),
    define: (redis) => {
      ensureDefined(redis);
      if (isCluster(redis)) ensureFixed(redis);
    },
  };
}
