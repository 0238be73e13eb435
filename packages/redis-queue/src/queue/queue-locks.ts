import { log } from 'crawlee';
import type { RequestQueueHeadItem } from '../core/crawlee-types.js';
import type { LockHeadResult } from '../politeness/lock-when-open.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { RedisQueueError } from '../errors/redis-queue-error.js';
import { anticipatedProlongMs, fastProlongAnswer } from './fast-prolong.js';
import type { LockBatches } from './lock-batches.js';
import type { LockLedger } from './lock-ledger.js';
import { lockMsOf } from './lock-secs.js';
import type { QueueContext } from './queue-context.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { decodeRequest, toHeadItem } from '../core/request-codec.js';
import type { Heartbeat } from '../liveness/heartbeat.js';

const MAX_LOCK_LIMIT = 1000;

/** Moves an unreadable entry to the dead letters (when it still holds the bytes that failed). */
export type DeadLetterFn = (id: string, raw: Buffer, reason: string) => Promise<void>;

/**
 * The lock operations of one queue client (request-queue contracts 1-5, docs/contract.md): lock the head, prolong (with the
 * `fastProlong` shortcut), refresh, release one, release all. Every lock is owned by the `clientKey` and judged on
 * Redis time inside the scripts; the ledger only remembers what this client took.
 */
export class QueueLocks {
  /**
   * @param scripts - the queue's scripts
   * @param ledger - this client's lock ledger
   * @param batches - the batched prolongs and updates
   * @param ctx - settings (fastProlong, prolong rule, recover limit, caching)
   * @param clientKey - the lock owner
   * @param deadLetter - moves an unreadable entry to the dead letters
   * @param heartbeat - this client's heartbeat (worker liveness), or undefined when off
   */
  constructor(
    private readonly scripts: QueueScripts,
    private readonly ledger: LockLedger,
    private readonly batches: LockBatches,
    private readonly ctx: QueueContext,
    private readonly clientKey: string,
    private readonly deadLetter: DeadLetterFn,
    private readonly heartbeat?: Heartbeat,
  ) {}

  /** Local monotonic time of the last `listAndLockHead` and its lock time (ms): the heartbeat keeps a client's
   * locks while it keeps asking for work, or while it processes a request (see {@link QueueLocks.wantsBeat}). */
  private lastLock = { at: Number.NEGATIVE_INFINITY, lockMs: 0 };

  /**
   * Whether this client's locks are worth a heartbeat: it holds some, and it processes one of them or asked for work
   * within the lock time. A crawler that stopped with requests left in its local buffer (its process still alive)
   * stops beating after one lock time, so those requests return one liveness window later.
   */
  wantsBeat(): boolean {
    if (this.ledger.heldUniqueKeys.size === 0) return false;
    return this.ledger.processing || performance.now() - this.lastLock.at < this.lastLock.lockMs;
  }

  /**
   * Checks `listAndLockHead`'s arguments before anything is sent.
   * @param limit - requests to lock (0 to 1000)
   * @param lockSecs - lock time in seconds
   * @returns the lock time in ms
   * @throws {@link InvalidOptionsError} for a bad limit or lock time
   */
  checkLockArgs(limit: number, lockSecs: number): number {
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LOCK_LIMIT) {
      throw new InvalidOptionsError(`listAndLockHead limit must be an integer from 0 to ${MAX_LOCK_LIMIT} (got ${limit})`);
    }
    return lockMsOf('listAndLockHead lockSecs', lockSecs);
  }

  /**
   * Atomically locks up to `limit` available requests, after moving expired locks back to their original place.
   * @param limit - requests to lock
   * @param lockSecs - lock time in seconds (as Crawlee passed it)
   * @param lockMs - the same in ms
   */
  async lockHead(limit: number, lockSecs: number, lockMs: number): Promise<LockHeadResult> {
    const appliedMs = anticipatedProlongMs(this.ctx.fastProlong, this.ctx.prolongLockFrom, lockMs);
    const lockedAt = performance.now();
    this.lastLock = { at: lockedAt, lockMs };
    // Buffers: stored bytes go back to the dead-letter script unchanged, even when they are not UTF-8.
    // With politeness the polite script takes requests from the per-host queues; without it nothing changes.
    const reply = (await this.scripts.run(
      this.ctx.politeness ? 'listAndLockHeadPolite' : 'listAndLockHead',
      [limit, lockMs + appliedMs, this.clientKey, this.scripts.offset(), this.ctx.recoverLimit, this.ctx.maxStalls, this.heartbeat?.settings.windowMs ?? 0],
      { buffers: true, extraKeys: [this.scripts.keys.stalls, this.scripts.keys.leases, this.scripts.keys.suspects, this.scripts.keys.live] },
    )) as Array<Buffer | number>;
    const items: RequestQueueHeadItem[] = [];
    for (let i = 4; i + 1 < reply.length; i += 2) {
      const id = reply[i]!.toString();
      const raw = reply[i + 1] as Buffer;
      const decoded = decodeRequest(raw, id);
      if (!decoded.ok) {
        await this.deadLetter(id, raw, decoded.reason);
        continue;
      }
      const fresh = this.ctx.fastProlong ? { lockedAt, lockMs, expiresAt: Number(reply[2]) + lockMs + appliedMs, appliedMs } : undefined;
      this.ledger.recordLock(decoded.request, this.ctx.cacheLockedRequests, fresh);
      items.push(toHeadItem(decoded.request));
    }
    if (items.length > 0) this.heartbeat?.start();
    // A polite queue that handed out nothing says when its first waiting host opens (a trailing element).
    const nextOpenAt = (reply.length - 4) % 2 === 1 ? Number(reply[reply.length - 1]!.toString()) : undefined;
    return {
      ...(nextOpenAt === undefined ? {} : { nextOpenInMs: nextOpenAt - Number(reply[2]) }),
      limit,
      lockSecs,
      queueHasLockedRequests: Number(reply[0]) === 1,
      hadMultipleClients: Number(reply[1]) === 1,
      queueModifiedAt: reply[3]?.toString() ? new Date(Number(reply[3].toString())) : new Date(),
      items,
    };
  }

  /**
   * Prolongs this client's lock by the configured rule, answering locally when `fastProlong` allows it.
   * @param id - request id
   * @param lockSecs - lock time in seconds
   * @param forefront - the request goes to the head once released
   * @returns the new expiry (ms, Redis time)
   * @throws {@link LockLostError}, {@link RequestAlreadyHandledError}, {@link RequestNotFoundError}
   */
  async prolong(id: string, lockSecs: unknown, forefront: boolean): Promise<number> {
    const lockMs = lockMsOf('prolongRequestLock lockSecs', lockSecs);
    const mode = this.ctx.prolongLockFrom;
    const fresh = this.ledger.takeFresh(id);
    // With maxStalls, the prolong that starts a request must reach Redis before the handler runs: it is the "started"
    // mark a stall is counted by (a worker killed by the request would never send a background one).
    // With a heartbeat a lock of this client can only have returned to others if its heartbeat lapsed.
    const local = this.ctx.fastProlong && !forefront && this.ctx.maxStalls === 0 && (this.heartbeat?.healthy() ?? true);
    const answer = local ? fastProlongAnswer(fresh, lockMs, mode, performance.now()) : undefined;
    if (answer) this.ledger.markStarted(id);
    if (answer?.kind === 'already-applied') return answer.lockExpiresAt;
    if (answer?.kind === 'background') {
      this.batches.prolong({ id, lockMs, forefront: false, mode, appliedMs: 0 }).catch((error: unknown) => {
        log.debug(`crawlee-redis-queue: background lock prolongation of ${id} failed`, { error: String(error) });
      });
      return answer.lockExpiresAt;
    }
    const expiresAt = await this.prolongChecked(id, lockMs, forefront, mode, fresh?.appliedMs ?? 0);
    this.ledger.markStarted(id);
    return expiresAt;
  }

  /**
   * Sets this client's lock to expire `lockSecs` from now (Redis time), whatever the prolong rule.
   * @param id - request id
   * @param lockSecs - lock time in seconds
   * @returns the new expiry (ms, Redis time)
   */
  async refresh(id: string, lockSecs: unknown): Promise<number> {
    this.ledger.takeFresh(id);
    return this.prolongChecked(id, lockMsOf('refreshRequestLock lockSecs', lockSecs), false, 'now', 0);
  }

  private async prolongChecked(id: string, lockMs: number, forefront: boolean, mode: 'expiry' | 'now', appliedMs: number): Promise<number> {
    try {
      return await this.batches.prolong({ id, lockMs, forefront, mode, appliedMs });
    } catch (error) {
      // Lost, handled or gone: this client no longer holds it.
      if (error instanceof RedisQueueError && error.code !== 'REDIS_SCRIPT_ERROR') this.ledger.forget(id);
      throw error;
    }
  }

  /**
   * Releases this client's lock (idempotent).
   * @param id - request id
   * @param forefront - back at the head instead of its original place
   */
  async release(id: string, forefront: boolean): Promise<void> {
    this.ledger.forget(id);
    await this.scripts.run('deleteRequestLock', [id, this.clientKey, forefront ? '1' : '0', this.scripts.offset()]);
  }

  /** Releases every lock this client still holds. @returns the number of locks released */
  async releaseAll(): Promise<number> {
    const ids = this.ledger.releaseAll();
    let released = 0;
    for (let start = 0; start < ids.length; start += 500) {
      released += Number(await this.scripts.run('releaseLocks', [this.clientKey, this.scripts.offset(), ...ids.slice(start, start + 500)]));
    }
    return released;
  }
}
