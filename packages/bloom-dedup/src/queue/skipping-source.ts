import { randomUUID } from 'node:crypto';
import { log } from 'crawlee';
import type { EnqueueFilterOp, EnqueueFilterPlan, EnqueueFilterSource, EnqueueFilterSplit } from '@crawlee-distributed/redis-kit/seam';
import { sameSlotKey } from '@crawlee-distributed/redis-kit';

/** Lifetime of the scratch set after its last use (it is emptied after every add; this only bounds leftovers). */
const SCRATCH_TTL_MS = 10 * 60_000;

type RedisLike = {
  srem(key: string, ...members: string[]): Promise<unknown>;
  pexpire(key: string, ms: number): Promise<unknown>;
  hincrby(key: string, field: string, by: number): Promise<unknown>;
};

/** The skip ops of one source (the whole store, or one part of a split one): its scratch set and what it planned. */
class Skipper {
  readonly scratchKey: string;
  private planned: string[] = [];
  private counter?: { key: string; field: string };

  constructor(
    private readonly inner: EnqueueFilterSource,
    private readonly marker: string,
  ) {
    this.scratchKey = sameSlotKey(inner.enqueueFilterKeys()[0] ?? 'crawlee-bloom-dedup', 'skip-scratch');
  }

  /** The inner source with skip ops for the marked keys. */
  source(): EnqueueFilterSource {
    return {
      redis: this.inner.redis,
      planEnqueueFilter: (dedupKeys) => this.plan(dedupKeys),
      enqueueFilterKeys: () => [...this.inner.enqueueFilterKeys(), this.scratchKey],
      ...(this.inner.prepare ? { prepare: () => this.inner.prepare!() } : {}),
    };
  }

  private plan(dedupKeys: string[]): EnqueueFilterPlan {
    const real = dedupKeys.filter((key) => !key.startsWith(this.marker));
    const plan = this.inner.planEnqueueFilter(real);
    if (real.length === dedupKeys.length) return plan;
    const scratch = plan.keys.length;
    let next = 0;
    const ops: EnqueueFilterOp[] = dedupKeys.map((key) => {
      if (!key.startsWith(this.marker)) return plan.ops[next++] as EnqueueFilterOp;
      const member = randomUUID();
      this.planned.push(member);
      return { type: 'member', key: scratch, member };
    });
    if (plan.counter) this.counter = { key: plan.keys[plan.counter.key] as string, field: plan.counter.newField };
    return { ...plan, keys: [...plan.keys, this.scratchKey], ops };
  }

  async settle(): Promise<void> {
    if (this.planned.length === 0) return;
    const members = this.planned;
    this.planned = [];
    const redis = this.inner.redis as RedisLike;
    try {
      await redis.srem(this.scratchKey, ...members);
      await redis.pexpire(this.scratchKey, SCRATCH_TTL_MS);
      if (this.counter) await redis.hincrby(this.counter.key, this.counter.field, -members.length);
    } catch (error) {
      log.debug(`crawlee-bloom-dedup: cleaning the dontFilter scratch set failed: ${String(error)}`);
    }
  }
}

/**
 * A seam source (docs/enqueue-filter-seam.md, `@1`) around a store's own, for requests that must not touch the store
 * at all (dontFilter, or keys this process forgot after a failure) while the queue's add script runs the filter.
 * Seam `@1` has one op per request and no "skip" op, so such a request gets a `member` op on a scratch set in the
 * store's slot, with a random member: always new, so the script enqueues it, and the store's own keys are never
 * touched. The wrapper empties the scratch members and takes them back out of the store's "itemsAdded" counter after
 * each add ({@link SkippingSource.settle}). A store split over a sharded queue's shards gets the same per part, each
 * part's scratch set in its shard's slot; a marked key may go to any part.
 */
export class SkippingSource {
  /** The source handed to the queue. */
  readonly source: EnqueueFilterSource;
  /** Prefix `keyOf` puts before the uniqueKey of a request that skips the store (random per wrapper). */
  readonly marker = `\u0000crawlee-bloom-dedup-skip:${randomUUID()}:`;
  private readonly skippers: Skipper[] = [];
  /** The split the sink asked for last (a sharded queue on a Cluster), if any. */
  split?: EnqueueFilterSplit;

  /** @param inner - the store's own seam source */
  constructor(inner: EnqueueFilterSource) {
    const whole = this.skipperOf(inner);
    const split = inner.splitEnqueueFilter?.bind(inner);
    this.source = {
      ...whole.source(),
      splitEnqueueFilter: split
        ? (layout) => {
            const parts = split(layout);
            this.split = parts && {
              parts: parts.parts.map((part) => this.skipperOf(part).source()),
              partOf: (key) => (key.startsWith(this.marker) ? undefined : parts.partOf(key)),
              prepare: () => parts.prepare(),
            };
            return this.split;
          }
        : undefined,
    };
  }

  private skipperOf(inner: EnqueueFilterSource): Skipper {
    const skipper = new Skipper(inner, this.marker);
    const same = this.skippers.find((s) => s.scratchKey === skipper.scratchKey);
    if (same) return same;
    this.skippers.push(skipper);
    return skipper;
  }

  /**
   * Removes the scratch members planned so far and corrects the store's "itemsAdded" counter by their number (the
   * script counted them as new). A member whose script has not run yet is left to the scratch set's TTL.
   */
  async settle(): Promise<void> {
    await Promise.all(this.skippers.map((s) => s.settle()));
  }
}
