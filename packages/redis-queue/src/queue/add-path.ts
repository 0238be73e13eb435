import type { ProcessedRequest, RequestSchema } from '../core/crawlee-types.js';
import type { EnqueueFilterSlot } from '../filter/enqueue-filter-slot.js';
import { DedupStoreRequiredError } from '../errors/dedup-store-required-error.js';
import type { ScriptArg } from '../core/scripts.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import {
  ADD_ADDED,
  FEED_HEAD_CHANGED,
  ADD_HANDLED,
  FEED_STEP_CHECK,
  FEED_STEP_NONE,
  FEED_STEP_POPPED,
  FEED_STEP_SREM,
  FEED_STEP_ZREM,
} from '../core/reply-codes.js';
import { encodeRequest } from '../core/request-codec.js';
import type { WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';
import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { QueuePoliteness } from '../politeness/queue-politeness.js';
import type { FeedEntry, FeedStep } from '../feed/feed-entry.js';

function feedStepArg(step: FeedStep): string {
  if (step.kind === 'check') return FEED_STEP_CHECK;
  if (step.kind === 'members') return step.layout === 'set' ? FEED_STEP_SREM : FEED_STEP_ZREM;
  return FEED_STEP_POPPED;
}

/**
 * The one add path of a queue: every way a request enters it (addRequest / batchAddRequests, the start-URL feed)
 * goes through the same uniqueKey transform, the same enqueue filter and the same script (`add-requests.lua`).
 */
export class AddPath {
  /** The registered uniqueKey transform (see `UNIQUE_KEY_SINK`), or undefined. */
  uniqueKeyTransform?: UniqueKeyTransform;

  /**
   * @param scripts - the queue's scripts
   * @param filter - the queue's enqueue filter
   * @param batchSize - requests per script call
   * @param stats - this worker's stats counters (told every add script's codes)
   * @param politeness - host keys for the polite branch of the add script (undefined: none)
   * @param storeRequired - the queue keeps its handled requests in its dedup store (`handledRequests: 'store'`):
   *   no add may run without it
   */
  constructor(
    private readonly scripts: QueueScripts,
    private readonly filter: EnqueueFilterSlot,
    private readonly batchSize: number,
    private readonly stats: WorkerStatsRecorder,
    private readonly politeness?: QueuePoliteness,
    private readonly storeRequired = false,
  ) {}

  /** Readies the attached store; refuses an add that would skip the store of a 'store' queue (the script checks
   * the same). @param what - the add path, for the message */
  private async beforeAdd(what: string): Promise<void> {
    if (this.storeRequired && !this.filter.isAttached) {
      throw new DedupStoreRequiredError(`queue "${this.scripts.queueName}" keeps its handled requests in its dedup store (handledRequests: 'store'); ${what} ran without it`);
    }
    await this.filter.prepare();
  }

  /**
   * Adds requests in chunks of `batchSize`, each chunk atomic. A request without a uniqueKey gets one from the
   * registered transform.
   *
   * @param requests - the requests
   * @param forefront - put new ones at the head
   * @returns one entry per request, in order
   * @throws {@link InvalidRequestError} when any request cannot be stored (checked before anything is written)
   */
  async add(requests: readonly RequestSchema[], forefront: boolean): Promise<ProcessedRequest[]> {
    const transform = this.uniqueKeyTransform;
    const encoded = requests.map((request) => {
      const keyed = transform && request && typeof request === 'object' && !request.uniqueKey ? transform({ ...request }) : request;
      return encodeRequest(keyed);
    });
    // Host keys of every chunk before the first is sent: a failing hostKey writes nothing.
    const politeArgs: Array<string | undefined> = [];
    for (let start = 0; start < encoded.length; start += this.batchSize) {
      politeArgs.push(this.politeness?.addArg(encoded.slice(start, start + this.batchSize).map((r) => r.url)));
    }
    if (encoded.length > 0) await this.beforeAdd('an add');
    const processed: ProcessedRequest[] = [];
    for (let start = 0; start < encoded.length; start += this.batchSize) {
      const chunk = encoded.slice(start, start + this.batchSize);
      const { planJson, keys, dedupCounter } = this.filter.argsFor(chunk);
      const args: ScriptArg[] = [forefront ? '1' : '0', this.scripts.offset(), planJson, FEED_STEP_NONE];
      for (const r of chunk) args.push(r.id, r.record, r.handled ? '1' : '0');
      const politeArg = politeArgs[start / this.batchSize];
      if (politeArg !== undefined) args.push(politeArg);
      const codes = ((await this.scripts.run('addRequests', args, { extraKeys: keys })) as unknown[]).map(Number);
      this.filter.report(codes);
      this.stats.added(codes, dedupCounter);
      chunk.forEach((request, i) => {
        processed.push({
          uniqueKey: request.uniqueKey,
          requestId: request.id,
          wasAlreadyPresent: codes[i] !== ADD_ADDED,
          wasAlreadyHandled: codes[i] === ADD_HANDLED,
        });
      });
    }
    return processed;
  }

  /**
   * Commits one start-URL feed batch in one script: requests through the enqueue filter like any add, unreadable
   * items to the dead letters, and (in check mode) the feed head checked and trimmed in the same step.
   *
   * @param given - the batch, in feed order
   * @param step - check-and-trim (list), remove-each-member (set, sorted set) or already popped
   * @returns one add-requests code per entry (`ADD_FEED_TAKEN` for a member another worker removed first), or
   *   undefined when the list head changed (nothing done)
   */
  async addFeedBatch(given: readonly FeedEntry[], step: FeedStep): Promise<number[] | undefined> {
    // A feed item whose host key cannot be computed becomes a dead letter with the reason (it would otherwise stay
    // at the head of the feed and stop every drain).
    const entries = given.map((entry): FeedEntry => {
      if (!this.politeness?.enabled || !('request' in entry)) return entry;
      try {
        this.politeness.hostKeyOf(entry.request.url);
        return entry;
      } catch (error) {
        return { raw: entry.raw, reason: error instanceof Error ? error.message : String(error), deadLetterId: entry.deadLetterId };
      }
    });
    const requests = entries.flatMap((e) => ('request' in e ? [e.request] : []));
    if (requests.length > 0) await this.beforeAdd('a start-URL feed drain');
    const { planJson, keys, dedupCounter } = this.filter.argsFor(requests);
    const args: ScriptArg[] = ['0', this.scripts.offset(), planJson, feedStepArg(step)];
    const politeArg = this.politeness?.addArg(entries.map((e) => ('request' in e ? e.request.url : undefined)));
    for (const entry of entries) {
      if ('request' in entry) args.push(entry.raw, 'r', entry.request.id, entry.request.record);
      else args.push(entry.raw, 'd', entry.deadLetterId ?? '', entry.reason);
    }
    if (politeArg !== undefined) args.push(politeArg);
    const extraKeys = step.kind === 'popped' ? keys : [...keys, step.feedKey];
    const reply = await this.scripts.run('addRequests', args, { extraKeys });
    if (!Array.isArray(reply)) {
      if (Number(reply) === FEED_HEAD_CHANGED) return undefined;
      throw this.scripts.mapError(new Error(`unexpected reply ${String(reply)}`), 'addRequests');
    }
    const codes = (reply as unknown[]).map(Number);
    this.filter.report(codes);
    this.stats.added(codes, dedupCounter);
    return codes;
  }
}
