import { CrawleeRedisError } from './crawlee-redis-error.js';

/**
 * Redis kept answering with failover errors (`CLUSTERDOWN`, `TRYAGAIN`, `READONLY`, `LOADING`, a connection closed
 * under a command, too many Cluster redirections) for longer than `failoverTimeoutSecs`: no master served the
 * operation's slot in that time, e.g. a master and all its replicas are down, or the cluster lost its majority.
 * Code `'REDIS_FAILOVER_TIMEOUT'`.
 */
export class RedisFailoverTimeoutError extends CrawleeRedisError {
  /** Seconds the operation was retried. */
  readonly timeoutSecs: number;

  /**
   * @param context - who asked, e.g. `crawlee-redis-queue`
   * @param timeoutSecs - how long the operation was retried, in seconds
   * @param options - standard `ErrorOptions` (`cause`: the last failover error)
   */
  constructor(context: string, timeoutSecs: number, options?: ErrorOptions) {
    const detail = options?.cause instanceof Error ? ` (last error: ${options.cause.message.split('\n')[0]})` : '';
    super(
      'REDIS_FAILOVER_TIMEOUT',
      `${context}: Redis did not serve the operation within failoverTimeoutSecs = ${timeoutSecs} s${detail}. A master ` +
        'and its replicas may all be down, or the cluster lost the majority of its masters: check ' +
        '`redis-cli -c -p <port> cluster info` (cluster_state) and `cluster nodes` (fail flags), restart the failed ' +
        'nodes; raise `failoverTimeoutSecs` to let operations wait longer through a failover.',
      options,
    );
    this.timeoutSecs = timeoutSecs;
  }
}
