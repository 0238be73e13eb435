import { log } from 'crawlee';
import { StartUrlFeedTypeError } from '../errors/start-url-feed-type-error.js';
import { claimFeedBatch, commitFeedClaim, feedClaimKeys, type FeedClaimKeys } from '../feed/feed-claims.js';
import { checkStartUrlFeed } from '../feed/drain-start-urls.js';
import type { FeedTypeWarnings } from '../feed/feed-type-warnings.js';
import { parseStartUrlItem } from '../feed/parse-start-url.js';
import { parseScrapyRedisItem } from '../feed/scrapy-redis-item.js';
import type { FeedDrainResult, FeedSource } from '../feed/start-url-feed.js';
import type { FeedEntry } from '../feed/feed-entry.js';
import type { StartUrlFeedSettings } from '../feed/feed-options.js';
import type { QueueCore } from '../queue/queue-core.js';
import { ADD_DEAD_LETTERED } from '../core/reply-codes.js';
import type { WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';
import { shardOf, type ShardBy } from './shard-of.js';
import type { ShardFilter } from './shard-filter.js';
import { checkPoliteShard } from './shard-politeness.js';

/** What the sharded drain needs of its queue. */
export interface ShardedFeedTarget {
  /** The shards' cores (shard order). */
  cores: readonly QueueCore[];
  shardBy: ShardBy;
  /** The queue's root hash tag (names the claim keys). */
  rootTag: string;
  /** True on a polite queue: a request whose uniqueKey is not a URL of its own host is a dead letter. */
  polite: boolean;
  /** The queue client's stats (told every add's codes). */
  workerStats: WorkerStatsRecorder;
  clockOffsetMs: () => number;
  /** The queue's enqueue filter: a split one checks each item's part and records its layout before the adds. */
  shardFilter: Pick<ShardFilter, 'misplaced' | 'prepare'>;
}

/**
 * The start-URL feed of a sharded queue. A batch's items go to the shard the shard rule gives for each uniqueKey,
 * through that shard's add script (dedup by uniqueKey, politeness, the enqueue filter, dead letters: as for any
 * add), so one batch is several scripts on several hash tags, never one step with the feed. The hand-over therefore
 * goes through a claim in the feed's own slot (claim-feed-batch.lua): pop the batch into a claim, add it shard by
 * shard, delete the claim. A worker killed in between leaves the claim; when its lease (the lock time) runs out,
 * the next drain replays it first, and the shards' uniqueKey dedup makes the replay add nothing twice. The same
 * holds on one Redis and on a Cluster (where the feed key and the shards are on other slots).
 *
 * Finish check: a drain that finds nothing says `busy` while another worker holds a live claim (its items are not
 * in the queue yet) or a claim was committed since this worker's last look (its walk over the shards may have run
 * before those items arrived), so no worker finishes while a batch is on its way.
 */
export class ShardedFeedDrain implements FeedSource {
  private readonly claimKeys = new Map<string, FeedClaimKeys>();
  /** Per feed key, the `commits` count this worker saw last (undefined before its first look). */
  private readonly commitsSeen = new Map<string, number>();

  /**
   * @param target - the sharded queue
   * @param feed - the feed settings
   */
  constructor(
    private readonly target: ShardedFeedTarget,
    private readonly feed: StartUrlFeedSettings,
  ) {}

  private get queueName(): string {
    return this.target.cores[0]!.scripts.queueName;
  }

  check(): Promise<void> {
    return checkStartUrlFeed(this.target.cores[0]!.scripts, this.feed);
  }

  async drain(warnings: FeedTypeWarnings, lockSecs: number): Promise<FeedDrainResult> {
    let busy = false;
    for (const feedKey of this.feed.keys(this.queueName)) {
      try {
        const { consumed, busy: keyBusy } = await this.drainKey(feedKey, lockSecs);
        warnings.readable(feedKey);
        if (consumed > 0) return { consumed, busy: busy || keyBusy };
        busy ||= keyBusy;
      } catch (error) {
        if (error instanceof StartUrlFeedTypeError) warnings.skip(error);
        else throw error;
      }
    }
    return { consumed: 0, busy };
  }

  private keysOf(feedKey: string): FeedClaimKeys {
    let keys = this.claimKeys.get(feedKey);
    if (!keys) this.claimKeys.set(feedKey, (keys = feedClaimKeys(feedKey, this.target.rootTag)));
    return keys;
  }

  private async drainKey(feedKey: string, lockSecs: number): Promise<FeedDrainResult> {
    const { cores } = this.target;
    const keys = this.keysOf(feedKey);
    const claim = await claimFeedBatch(cores[0]!.scripts.connection, feedKey, keys, this.feed.layout, this.feed.batchSize, lockSecs * 1000, String(Math.trunc(this.target.clockOffsetMs())));
    if (claim.kind === 'empty') {
      const seen = this.commitsSeen.get(feedKey);
      this.commitsSeen.set(feedKey, claim.commits);
      return { consumed: 0, busy: claim.liveClaims > 0 || seen !== claim.commits };
    }
    if (claim.replay) log.info(`crawlee-redis-queue: replaying start-URL batch ${claim.id} of ${feedKey} (${claim.raws.length} items), claimed by a worker that did not finish adding it`);
    const consumed = await this.addClaim(claim.id, claim.raws, feedKey);
    // Every commit up to this one happened before this worker's next walk over the shards starts: none is missed.
    this.commitsSeen.set(feedKey, await commitFeedClaim(cores[0]!.scripts.connection, keys, claim.id, claim.raws.length));
    return { consumed, busy: false }; // the caller locks again, after this commit: it sees what this claim added
  }

  /** Adds one claim's items, each to its shard (the shards in parallel). @returns the items consumed */
  private async addClaim(claimId: string, raws: ReadonlyArray<Buffer | null>, feedKey: string): Promise<number> {
    const { cores, shardBy, polite } = this.target;
    const parse = this.feed.format === 'crawlee' ? parseStartUrlItem : parseScrapyRedisItem;
    const transform = cores[0]!.addPath.uniqueKeyTransform;
    const groups = new Map<number, FeedEntry[]>();
    const put = (shard: number, entry: FeedEntry) => {
      const group = groups.get(shard);
      if (group) group.push(entry);
      else groups.set(shard, [entry]);
    };
    raws.forEach((raw, i) => {
      if (raw === null) return; // removed from the claim record by someone else
      // Named after the claim, so a replay rewrites the same dead letter and the same alwaysEnqueue key.
      const tag = `${claimId}.${i}`;
      const deadLetterId = `feed-${tag}`;
      const item = parse(raw, this.feed.alwaysEnqueue, transform, tag);
      if (item.kind === 'd') return put(0, { raw, reason: item.reason, deadLetterId });
      try {
        if (polite) checkPoliteShard(item.request);
      } catch (error) {
        return put(0, { raw, reason: (error as Error).message, deadLetterId });
      }
      const shard = shardOf(item.request.uniqueKey, cores.length, shardBy);
      const misplaced = this.target.shardFilter.misplaced(shard, item.request);
      if (misplaced) return put(0, { raw, reason: misplaced, deadLetterId });
      put(shard, { raw, request: item.request, deadLetterId });
    });
    // A split enqueue filter records its layout before its plans run in any shard (as an API add does).
    await this.target.shardFilter.prepare();
    const replies = await Promise.all([...groups].map(([s, entries]) => cores[s]!.addPath.addFeedBatch(entries, { kind: 'popped' })));
    const codes = replies.flatMap((r) => r ?? []);
    this.target.workerStats.added(codes);
    const dead = codes.filter((c) => c === ADD_DEAD_LETTERED).length;
    if (dead > 0) log.warning(`crawlee-redis-queue: ${dead} start-URL item(s) of ${feedKey} were not valid; moved to the dead letters of queue "${this.queueName}"`);
    return codes.length;
  }
}
