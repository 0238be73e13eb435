import type { QueueOperationInfo } from '../core/crawlee-types.js';
import type { ScriptArg } from '../core/scripts.js';
import type { EncodedRequest } from '../core/request-codec.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { ScriptBatcher } from './script-batcher.js';
import { QueuePoliteness, type PoliteUpdateEntry } from '../politeness/queue-politeness.js';

/** Items per batched prolong or update script call. */
const MAX_BATCH = 200;

/** One prolong of one lock. */
export interface ProlongItem {
  id: string;
  lockMs: number;
  forefront: boolean;
  mode: 'expiry' | 'now';
  /** Lock time already added at lock time in anticipation of this prolong (ms). */
  appliedMs: number;
}

/** One update (mark handled, or reclaim) of one request. */
export interface UpdateItem {
  encoded: EncodedRequest;
  forefront: boolean;
  /** Marked handled after its handler failed for good: recorded in the failed index. */
  failed: boolean;
  /** With politeness: the request's host and the not-before delay of a reclaim (ms). */
  polite?: PoliteUpdateEntry;
}

/**
 * The two batched kinds of calls (prolongs and updates, one script per event-loop turn each) and their flush order:
 * every other command goes out after the waiting batches ({@link LockBatches.flushAll}, wired as the scripts'
 * `beforeCall`), and a call of one kind on a request the other batch holds sends that batch first, so Redis sees the
 * calls about one request in the order they were made.
 */
export class LockBatches {
  private readonly prolongs: ScriptBatcher<ProlongItem, number>;
  private readonly updates: ScriptBatcher<UpdateItem, QueueOperationInfo>;

  /**
   * @param scripts - the queue's scripts
   * @param clientKey - the lock owner
   * @param failedRequests - what a request that failed for good becomes (see `RedisStorageClientOptions`)
   * @param liveMs - the liveness window in ms of this client's heartbeat (0: none): prolongs keep the lock's check
   *   time short (see prolong-request-lock.lua)
   */
  constructor(
    private readonly scripts: () => QueueScripts,
    private readonly clientKey: string,
    private readonly failedRequests: 'keep' | 'forget' = 'keep',
    private readonly liveMs = 0,
  ) {
    this.prolongs = new ScriptBatcher((items) => this.prolongBatch(items), MAX_BATCH, (item) => item.id);
    this.updates = new ScriptBatcher((items) => this.updateBatch(items), MAX_BATCH, (item) => item.encoded.id);
  }

  /** Sends both waiting batches now (before any other command). */
  flushAll(): void {
    this.prolongs.flushNow();
    this.updates.flushNow();
  }

  /** Queues one prolong. @param item - the prolong @returns the new expiry (ms, Redis time) */
  prolong(item: ProlongItem): Promise<number> {
    if (this.updates.holds(item.id)) this.updates.flushNow();
    return this.prolongs.call(item);
  }

  /** Queues one update. @param item - the update @returns the state before the update */
  update(item: UpdateItem): Promise<QueueOperationInfo> {
    if (this.prolongs.holds(item.encoded.id)) this.prolongs.flushNow();
    return this.updates.call(item);
  }

  private async prolongBatch(items: ProlongItem[]): Promise<Array<number | Error>> {
    const scripts = this.scripts();
    const args: ScriptArg[] = [this.clientKey, scripts.offset(), this.liveMs];
    for (const item of items) args.push(item.id, item.lockMs, item.forefront ? '1' : '0', item.mode, item.appliedMs);
    const reply = (await scripts.run('prolongRequestLock', args)) as unknown[];
    // Per request: the new expiry, or the error code and detail as a string.
    return reply.map((entry) => (typeof entry === 'number' ? entry : scripts.mapError(new Error(String(entry)), 'prolongRequestLock')));
  }

  private async updateBatch(items: UpdateItem[]): Promise<QueueOperationInfo[]> {
    const scripts = this.scripts();
    const args: ScriptArg[] = [this.clientKey, scripts.offset(), this.failedRequests];
    for (const { encoded, forefront, failed } of items) {
      args.push(encoded.id, encoded.record, !encoded.handled ? '0' : failed ? '2' : '1', forefront ? '1' : '0');
    }
    const politeArg = QueuePoliteness.updateArg(items.map((item) => item.polite));
    if (politeArg !== undefined) args.push(politeArg);
    const { failed, failedData, failedKept } = scripts.keys;
    const reply = (await scripts.run('updateRequest', args, { extraKeys: [failed, failedData, failedKept] })) as unknown[];
    return items.map(({ encoded }, i) => ({
      requestId: encoded.id,
      wasAlreadyPresent: Number(reply[2 * i]) === 1,
      wasAlreadyHandled: Number(reply[2 * i + 1]) === 1,
    }));
  }
}
