import { setImmediate } from 'node:timers';
import type { ConnectionHandle, RedisConnection } from './connection.js';
import { ReplicasNotAcknowledgedError } from '../errors/replicas-not-acknowledged-error.js';

/** The `durability` option, checked: replicas that must acknowledge, and how long `WAIT` may block. */
export interface DurabilitySettings {
  /** Replicas that must acknowledge each durable write (`WAIT numreplicas`). */
  readonly replicas: number;
  /** `WAIT` timeout in ms. */
  readonly timeoutMs: number;
}

/** Attempts of one durable write whose connection changed before its `WAIT` answered. */
const MAX_ATTEMPTS = 3;
/** The probe key lives this long (ms): it only exists so that each `WAIT` follows a write of its own. */
const PROBE_TTL_MS = 60_000;

/** Connection events that mean a command may have gone to another node (or another incarnation of one) than the one
 * before: a node left or joined the Cluster's pool, a node connection failed, a standalone connection closed. */
const CHANGE_EVENTS = ['+node', '-node', 'node error', 'close', 'reconnecting'];
/** One counter of such events per connection, shared by every queue on it (listeners added once). */
const changes = new WeakMap<RedisConnection, { count: number }>();

function changeCounter(redis: RedisConnection): { count: number } {
  let counter = changes.get(redis);
  if (!counter) {
    const c = { count: 0 };
    counter = c;
    changes.set(redis, c);
    // Never an 'error' listener on a connection the caller owns: that would change how its errors surface.
    for (const event of CHANGE_EVENTS) (redis as unknown as NodeJS.EventEmitter).on(event, () => c.count++);
  }
  return counter;
}

interface Waiter {
  epoch: number;
  resolve: (outcome: number | 'moved') => void;
  reject: (error: unknown) => void;
}

/**
 * Makes the writes of one queue wait for replicas (the `durability` option): after a write that must not be lost,
 * `WAIT replicas timeout` runs on the master of the queue's slot, and the write's promise settles only then.
 *
 * - One `WAIT` covers every write confirmed in one event-loop turn (and those that arrive while one is in flight:
 *   they share the next), so a busy worker pays one round trip per batch, not per request.
 * - `WAIT` counts replicas that acknowledged the connection's last write; it has no key, so it is sent in one
 *   pipeline after a write of its own (`SET <tag>:wait-probe` with a TTL) on the queue's slot: ioredis routes the
 *   pipeline to the slot's master over the same connection the queue's scripts use, and the probe write makes the
 *   `WAIT` cover everything that master applied before it, our writes included (Redis applies one connection's
 *   commands in order).
 * - A write acknowledged by a master that then died, followed by a `WAIT` on the new master, would be confirmed by
 *   replicas that never saw it. So a write whose connection changed (a node joined or left the pool, a node
 *   connection failed, a failover error was retried) between its start and its `WAIT` reply is run again (every
 *   durable script is idempotent: adds dedup by uniqueKey, a handled mark is idempotent, a reclaim re-places the
 *   request) and confirmed again, at most three times.
 *
 * Source of the rule: Redis `WAIT` documentation ("WAIT ... blocks the current client until all the previous write
 * commands are successfully transferred and acknowledged by at least the specified number of replicas").
 */
export class ReplicaWait {
  private waiting: Waiter[] = [];
  private scheduled = false;
  private sending = false;
  private readonly counter: { count: number };

  /**
   * @param connection - the queue's connection
   * @param probeKey - a key in the queue's hash tag for the probe write
   * @param settings - replicas and timeout
   * @param context - the queue, for error messages
   */
  constructor(
    private readonly connection: ConnectionHandle,
    private readonly probeKey: string,
    readonly settings: DurabilitySettings,
    private readonly context: string,
  ) {
    this.counter = changeCounter(connection.redis);
  }

  private epoch(): number {
    return this.counter.count + this.connection.failoverRetries;
  }

  /**
   * Runs a write and resolves once `settings.replicas` replicas acknowledged it.
   *
   * @param operation - the write (idempotent: it may run again after a failover)
   * @param name - the operation, for the error message
   * @returns the write's first reply
   * @throws {@link ReplicasNotAcknowledgedError} when fewer replicas acknowledged it in time, or the connection
   *   changed before its `WAIT` three times in a row
   */
  async write<T>(operation: () => Promise<T>, name: string): Promise<T> {
    let first: { reply: T } | undefined;
    for (let attempt = 1; ; attempt++) {
      const epoch = this.epoch();
      const reply = await operation();
      first ??= { reply };
      const outcome = await this.confirm(epoch);
      if (outcome === 'moved') {
        if (attempt < MAX_ATTEMPTS) continue;
        throw new ReplicasNotAcknowledgedError(`${this.context} ${name}`, this.settings.replicas, this.settings.timeoutMs / 1000, undefined);
      }
      if (outcome < this.settings.replicas) {
        throw new ReplicasNotAcknowledgedError(`${this.context} ${name}`, this.settings.replicas, this.settings.timeoutMs / 1000, outcome);
      }
      return first.reply;
    }
  }

  /** Waits for the next `WAIT`; resolves with its reply, or `'moved'` when the connection changed since `epoch`. */
  private confirm(epoch: number): Promise<number | 'moved'> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ epoch, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.sending || this.waiting.length === 0) return;
    this.scheduled = true;
    // The writes of this turn confirm together (their replies arrive in one read of the socket).
    setImmediate(() => {
      this.scheduled = false;
      void this.send();
    });
  }

  private async send(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.sending = true;
    try {
      const acknowledged = await this.connection.run(() => this.waitOnSlotMaster());
      const now = this.epoch();
      for (const w of batch) w.resolve(now === w.epoch ? acknowledged : 'moved');
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  /** The probe write and `WAIT` in one pipeline on the probe key's slot (its master, on a Cluster). */
  private async waitOnSlotMaster(): Promise<number> {
    const redis = this.connection.redis;
    const replies = await redis
      .pipeline()
      .set(this.probeKey, '1', 'PX', PROBE_TTL_MS)
      .wait(this.settings.replicas, Math.max(1, Math.round(this.settings.timeoutMs)))
      .exec();
    const [probe, wait] = replies ?? [];
    // A failover error of either command is thrown as it is, so the connection's retry sees it.
    if (probe?.[0]) throw probe[0];
    if (wait?.[0]) throw wait[0];
    if (typeof wait?.[1] !== 'number') throw new Error(`unexpected WAIT reply ${String(wait?.[1])}`);
    return wait[1];
  }
}
