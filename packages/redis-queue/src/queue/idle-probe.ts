import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type { ConnectionHandle } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { redisTimeMs } from '../core/redis-time-ms.js';

/** One queue (or shard) an idle probe looks at: its keys and its lock call. */
export interface ProbeTarget {
  readonly keys: QueueKeys;
  lockHead(limit: number, lockSecs: number): Promise<LockHeadResult>;
}

/** What a probe says: nothing changed (keep backing off), or ask Redis with a full lock call. */
export type ProbeAnswer = 'quiet' | 'ask';

/**
 * The look of an idle worker at its queue between back-off steps, instead of a full lock call on every shard (a lock
 * script runs about a dozen commands on each shard it asks, so a walk over four shards once a second was 50 commands
 * per second for a worker doing nothing). Per shard, two plain commands, sent together with one TIME:
 * `EXISTS fifo front back` (a request available, or a list entry to look at) and `ZRANGE locks 0 0 WITHSCORES`
 * (any lock left, and the first lock's check time). It answers 'ask' (a full lock call follows) when a request may be
 * available or no shard holds a lock (the crawl may be finished: only the lock script's flags decide that). A shard
 * whose first lock's check time has come gets its lock call with limit 0 there and then: expired-lock recovery runs
 * as it would have (a live owner's lock gets its next check time, a gone owner's locks return and the next probe sees
 * them available), so a dead worker's locks come back as before. Not for a polite queue (its requests wait in host
 * queues and its lock call says when the next host opens) or one with a start-URL feed (its lock call drains the
 * feed).
 *
 * @param connection - the queue's connection
 * @param targets - the queue, or every shard
 * @param clockOffsetMs - the clock offset the scripts apply (tests only)
 * @returns the probe: given the lock time Crawlee asks with, 'quiet' or 'ask'
 */
export function idleProbe(connection: ConnectionHandle, targets: readonly ProbeTarget[], clockOffsetMs: () => number): (lockSecs: number) => Promise<ProbeAnswer> {
  return async (lockSecs) => {
    const redis = connection.redis;
    const [time, ...looks] = await connection.run(() =>
      Promise.all([
        redis.time(),
        ...targets.map((t) => Promise.all([redis.exists(t.keys.fifo, t.keys.front, t.keys.back), redis.zrange(t.keys.locks, '0', '0', 'WITHSCORES')])),
      ]),
    );
    const now = redisTimeMs(time as [string | number, string | number]) + clockOffsetMs();
    let anyLock = false;
    const due: ProbeTarget[] = [];
    for (let i = 0; i < targets.length; i++) {
      const [available, first] = looks[i] as [number, string[]];
      if (available > 0) return 'ask';
      if (first.length === 0) continue;
      anyLock = true;
      if (Number(first[1]) <= now) due.push(targets[i]!);
    }
    if (!anyLock) return 'ask';
    for (const target of due) {
      if (!(await target.lockHead(0, lockSecs)).queueHasLockedRequests) return 'ask';
    }
    return 'quiet';
  };
}
