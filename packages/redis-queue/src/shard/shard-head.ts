import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type { QueueCore } from '../queue/queue-core.js';

/** How long a shard that had nothing available is tried after the others (ms of this process's clock: only an
 * order hint, never a decision about finishing). */
const EMPTY_HINT_MS = 1000;

/**
 * `listAndLockHead` over S shards for one client. The busy path is one script on one shard: the client starts at its
 * own shard (random at first, then the one after the shard it last locked from, so a fleet rotates over every shard
 * and a shard's load is spread), and only when that shard has nothing available does it go on to the next. Shards
 * that had nothing available in the last second are tried last (the hint), so a draining crawl does not walk through
 * empty shards before it reaches work. A call that finds nothing has asked every shard, so `queueHasLockedRequests`
 * is the OR over all of them (no worker finishes while any shard holds a lock or a producer lease) and every shard's
 * expired locks are recovered.
 */
export class ShardHead {
  private cursor: number;
  private readonly emptyUntil: number[];

  /** @param cores - the shards' cores @param onLocked - told the shard of every request locked */
  constructor(
    private readonly cores: readonly QueueCore[],
    private readonly onLocked: (id: string, shard: number) => void,
  ) {
    this.cursor = Math.floor(Math.random() * cores.length);
    this.emptyUntil = cores.map(() => 0);
  }

  /** The order this call tries the shards in: from the cursor, hinted-empty shards last. */
  private order(now: number): number[] {
    const fresh: number[] = [];
    const hinted: number[] = [];
    for (let i = 0; i < this.cores.length; i++) {
      const s = (this.cursor + i) % this.cores.length;
      (this.emptyUntil[s]! > now ? hinted : fresh).push(s);
    }
    return [...fresh, ...hinted];
  }

  /**
   * @param limit - requests to lock (checked by the caller)
   * @param lockSecs - lock time in seconds
   * @returns the first shard's result that has items, else the OR of every shard's flags with no items
   */
  async lockHead(limit: number, lockSecs: number): Promise<LockHeadResult> {
    const first = await this.walk(limit, lockSecs);
    if (first.items.length > 0 || first.queueHasLockedRequests) return first;
    // One walk asks the shards one after another, so it is not one atomic look at the queue: a worker can add a
    // request to a shard this walk already passed and then mark its own request handled in a shard the walk reaches
    // later, and the walk sees neither (a fleet would finish with work left). A second walk closes that: if it too
    // finds nothing and no lock, every request added during the first walk was added while its adder's lock was
    // still held (Crawlee adds a page's links before it marks the page handled), so the first walk would have seen
    // that lock. Only a queue that looks finished pays for the second walk.
    return this.walk(limit, lockSecs);
  }

  /** Asks the shards in order until one has work. */
  private async walk(limit: number, lockSecs: number): Promise<LockHeadResult> {
    let anyLocked = false;
    let multipleClients = false;
    let last: LockHeadResult | undefined;
    // The first host to open over every shard (polite queues), for a walk that found nothing.
    let nextOpenInMs: number | undefined;
    for (const s of this.order(performance.now())) {
      const result = await this.cores[s]!.lockHead(limit, lockSecs);
      anyLocked ||= result.queueHasLockedRequests === true;
      multipleClients ||= result.hadMultipleClients === true;
      if (result.items.length > 0) {
        this.emptyUntil[s] = 0;
        this.cursor = (s + 1) % this.cores.length;
        for (const item of result.items) this.onLocked(item.id, s);
        // A shard's quiet time after a hand-out speaks for that shard only: not passed on.
        const { nextOpenInMs: _, ...locked } = result;
        return { ...locked, queueHasLockedRequests: true, hadMultipleClients: multipleClients };
      }
      this.emptyUntil[s] = performance.now() + EMPTY_HINT_MS;
      if (result.nextOpenInMs !== undefined) nextOpenInMs = Math.min(nextOpenInMs ?? Infinity, result.nextOpenInMs);
      if (!last || result.queueModifiedAt > last.queueModifiedAt) last = result;
    }
    const { nextOpenInMs: _, ...lastFlags } = last!;
    return { ...lastFlags, queueHasLockedRequests: anyLocked, hadMultipleClients: multipleClients, ...(nextOpenInMs === undefined ? {} : { nextOpenInMs }) };
  }
}
