import type { DedupCounterLocation } from '../stats/worker-stats-recorder.js';
import type { AttachEnqueueFilterOptions, EnqueueFilterSource } from '@crawlee-distributed/redis-kit/seam';
import { EnqueueFilterIncompatibleError } from '../errors/enqueue-filter-incompatible-error.js';
import type { RedisConnection } from '../core/connection.js';
import { ADD_FILTERED } from '../core/reply-codes.js';
import { canAttachEnqueueFilter } from './can-attach.js';
import { validateEnqueueFilterPlan } from './validate-plan.js';

/** The fields of a request the filter's `keyOf` sees. */
export interface FilterableRequest {
  uniqueKey: string;
  url: string;
  method?: string;
}

/** The filter part of one add script call. */
export interface FilterArgs {
  /** ARGV[3]: the plan as JSON, '' without a filter. */
  planJson: string;
  /** The plan's keys (KEYS[13..] of add-requests.lua). */
  keys: string[];
  /** Where the plan counts filtered requests (for the worker stats), when it counts. */
  dedupCounter?: DedupCounterLocation;
}

interface Attached {
  source: EnqueueFilterSource;
  keyOf: NonNullable<AttachEnqueueFilterOptions['keyOf']>;
  onFiltered?: (count: number) => void;
}

/**
 * The enqueue filter of one queue client (docs/enqueue-filter-seam.md): the attach rule, the plan of each add batch
 * (validated before it reaches the script), and the filtered count reported back to the dedup store's wrapper.
 */
export class EnqueueFilterSlot {
  private attached?: Attached;

  /**
   * @param redis - the queue's connection
   * @param tag - the queue's hash tag
   * @param queueName - for error messages
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly tag: string,
    private readonly queueName: string,
  ) {}

  /** @param source - a dedup store offering the seam @returns true when its plans can run in the queue's scripts */
  canAttach(source: EnqueueFilterSource): boolean {
    return canAttachEnqueueFilter(this.redis, this.tag, source);
  }

  /**
   * @param source - a dedup store offering the seam
   * @param options - `keyOf` (default: uniqueKey), `onFiltered`
   * @throws {@link EnqueueFilterIncompatibleError} when {@link EnqueueFilterSlot.canAttach} is false
   */
  attach(source: EnqueueFilterSource, options: AttachEnqueueFilterOptions = {}): void {
    if (!this.canAttach(source)) {
      throw new EnqueueFilterIncompatibleError(
        `the dedup store cannot run inside request queue "${this.queueName}"'s scripts (another Redis, or keys outside hash tag ${this.tag}); filter in front of the queue instead`,
      );
    }
    this.attached = { source, keyOf: options.keyOf ?? ((r) => r.uniqueKey), onFiltered: options.onFiltered };
  }

  /**
   * Readies the attached store before its plan runs (the seam's optional `prepare`: a Bloom store writes its meta
   * hash whole), so the first path that touches the store, whichever it is, finds it complete.
   * @throws the store's typed error (an incompatible filter, say); nothing is added then
   */
  async prepare(): Promise<void> {
    await this.attached?.source.prepare?.();
  }

  /** True while a store is attached. */
  get isAttached(): boolean {
    return this.attached !== undefined;
  }

  /** Stops filtering. */
  detach(): void {
    this.attached = undefined;
  }

  /**
   * The plan for one batch (one op per request, in order).
   * @param requests - the batch's requests
   * @throws {@link InvalidOptionsError} when the store's plan does not follow the seam
   */
  argsFor(requests: readonly FilterableRequest[]): FilterArgs {
    const filter = this.attached;
    if (!filter || requests.length === 0) return { planJson: '', keys: [] };
    const plan = filter.source.planEnqueueFilter(
      requests.map((r) => filter.keyOf({ uniqueKey: r.uniqueKey, url: r.url, method: r.method })),
    );
    validateEnqueueFilterPlan(plan, requests.length);
    const dedupCounter = plan.counter ? { key: plan.keys[plan.counter.key]!, field: plan.counter.filteredField } : undefined;
    return { planJson: JSON.stringify({ ops: plan.ops, counter: plan.counter }), keys: plan.keys, dedupCounter };
  }

  /** Tells the wrapper how many requests of a batch the filter rejected. @param codes - the add script's codes */
  report(codes: readonly number[]): void {
    const onFiltered = this.attached?.onFiltered;
    if (!onFiltered) return;
    const filtered = codes.filter((c) => c === ADD_FILTERED).length;
    if (filtered > 0) onFiltered(filtered);
  }
}
