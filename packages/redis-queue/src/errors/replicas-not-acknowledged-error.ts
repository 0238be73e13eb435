import { RedisQueueError } from './redis-queue-error.js';

/**
 * With the `durability` option: a write that must survive a failover (an add, a handled mark, a reclaim) is on the
 * master, but fewer replicas than `durability.replicas` acknowledged it within `durability.timeoutSecs` (Redis
 * `WAIT`), or the connection was re-established to another node between the write and its `WAIT` three times in a
 * row, so whether it reached a replica is unknown. A failover now could lose it. Code `'REPLICAS_NOT_ACKNOWLEDGED'`.
 *
 * The write itself was applied and is idempotent: retrying the operation (Crawlee retries a failed
 * `markRequestHandled` and the handler of a failed add) is safe.
 */
export class ReplicasNotAcknowledgedError extends RedisQueueError {
  /** Replicas that acknowledged (the `WAIT` reply), or undefined when the connection changed in between. */
  readonly acknowledged: number | undefined;
  /** Replicas required (`durability.replicas`). */
  readonly required: number;

  /**
   * @param context - the queue and operation, e.g. `request queue "crawl" addRequests`
   * @param required - `durability.replicas`
   * @param timeoutSecs - `durability.timeoutSecs`
   * @param acknowledged - the `WAIT` reply, or undefined when the connection changed between the write and `WAIT`
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(context: string, required: number, timeoutSecs: number, acknowledged: number | undefined, options?: ErrorOptions) {
    const what =
      acknowledged === undefined
        ? 'the connection moved to another node between the write and its WAIT (a failover), three times in a row, so it is unknown whether a replica has it'
        : `${acknowledged} of ${required} replica${required === 1 ? '' : 's'} acknowledged it within durability.timeoutSecs = ${timeoutSecs} s (WAIT)`;
    super(
      'REPLICAS_NOT_ACKNOWLEDGED',
      `${context}: the write is on the master but ${what}; a failover now could lose it. Check the replicas of the ` +
        "queue's master (`redis-cli -p <port> info replication`: connected_slaves, each replica's lag; after a " +
        'failover the new master has no replica until the failed node is restarted or another replica is added), ' +
        'raise durability.timeoutSecs, or lower durability.replicas. Retrying the operation is safe.',
      options,
    );
    this.acknowledged = acknowledged;
    this.required = required;
  }
}
