import { mapScriptError } from './map-script-error.js';
import type { ConnectionHandle } from './connection.js';
import type { QueueKeys } from './keys.js';
import { runScript, runScriptBuffer, type ScriptArg, type ScriptName } from './scripts.js';
import { ReplicaWait, type DurabilitySettings } from './replica-wait.js';

/** The writes that must survive a failover with the `durability` option: adds (API, feed) and updates (handled,
 * reclaim). Locks and prolongs are not: a lost lock only lets a request run twice, never lose it. */
const DURABLE_SCRIPTS: ReadonlySet<ScriptName> = new Set(['addRequests', 'updateRequest']);

/** Options of one {@link QueueScripts.run} call. */
export interface ScriptCallOptions {
  /** Keys after the queue's twelve (enqueue filter plan keys, a feed list). */
  extraKeys?: readonly string[];
  /** Bulk replies as Buffers (replies that carry stored bytes). */
  buffers?: boolean;
}

/**
 * The scripts of one request queue: every call carries the queue's keys (KEYS[1..12]) and the clock offset, runs
 * through the connection policy, and maps script error replies to typed errors (`mapScriptError`). The queue core,
 * the start-URL feed and the admin all call scripts through this class.
 */
export class QueueScripts {
  /** Confirms durable writes with `WAIT` (the `durability` option), or undefined when off. */
  private readonly replicaWait: ReplicaWait | undefined;

  /**
   * @param connection - the queue's connection
   * @param keys - the queue's keys
   * @param queueName - for error messages
   * @param clockOffsetMs - added to Redis TIME by every script (tests only)
   * @param beforeCall - run before each script except the batched ones (sends waiting batches first: call order)
   * @param durability - replicas that must acknowledge adds and updates (`WAIT`), or undefined
   */
  constructor(
    readonly connection: ConnectionHandle,
    readonly keys: QueueKeys,
    readonly queueName: string,
    private readonly clockOffsetMs: () => number = () => 0,
    private readonly beforeCall: (name: ScriptName) => void = () => {},
    durability?: DurabilitySettings,
  ) {
    this.replicaWait = durability && new ReplicaWait(connection, keys.waitProbe, durability, `request queue "${queueName}"`);
  }

  /** The clock offset argument of the scripts (ms, decimal string). */
  offset(): string {
    return String(Math.trunc(this.clockOffsetMs()));
  }

  /**
   * Runs one queue script.
   *
   * @param name - the operation
   * @param args - ARGV
   * @param options - extra keys, Buffer replies
   * @returns the raw reply
   * @throws {@link RedisQueueError} subclasses mapped from the script's error reply
   */
  async run(name: ScriptName, args: readonly ScriptArg[], options: ScriptCallOptions = {}): Promise<unknown> {
    this.beforeCall(name);
    const { extraKeys = [], buffers = false } = options;
    const keys = extraKeys.length ? [...this.keys.all, ...extraKeys] : this.keys.all;
    const call = buffers ? runScriptBuffer : runScript;
    const once = () => this.connection.run(() => call(this.connection.redis, name, keys, args));
    try {
      if (this.replicaWait && DURABLE_SCRIPTS.has(name)) return await this.replicaWait.write(once, name);
      return await once();
    } catch (error) {
      throw this.mapError(error, name);
    }
  }

  /**
   * The typed error of one script error reply (also for per-item errors of batched replies).
   * @param error - the error or error text
   * @param name - the operation
   */
  mapError(error: unknown, name: ScriptName): Error {
    return mapScriptError(error, `request queue "${this.queueName}" ${name}`);
  }
}
