import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { log } from 'crawlee';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Options of a producer lease (`RedisQueueAdmin.openProducerLease`, `RedisRequestQueue.holdOpen`). */
export interface ProducerLeaseOptions {
  /** Seconds a lease lives without a renewal: how long after a producer dies the workers may finish. From 1 to
   * 3600. @defaultValue 30 */
  leaseSecs?: number;
  /** Seconds between two automatic renewals (an unref'd timer, so it never keeps Node alive); must be below
   * `leaseSecs`. `0` turns automatic renewal off (call {@link ProducerLease.renew} yourself).
   * @defaultValue `leaseSecs / 3` */
  renewEverySecs?: number;
  /** The lease id (shown to operators). @defaultValue `producer:<host>:<pid>:<random>` */
  id?: string;
}

/**
 * A producer lease on a queue: while it is alive, `listAndLockHead` tells every worker the queue still has locked
 * requests, so Crawlee's `isFinished()` stays false and no worker finishes while the producer is still adding
 * (a producer holds no request lock, so without a lease an idle fleet would finish between two of its adds).
 * It expires on Redis time `leaseSecs` after its last renewal, so a producer that dies (even SIGKILL) lets the
 * workers finish then.
 */
export interface ProducerLease {
  /** The lease id. */
  readonly id: string;
  /** Renews the lease now. @returns when it expires (Redis time) */
  renew(): Promise<Date>;
  /** Ends the lease (stops the renewal timer); idempotent. Workers may finish from their next poll on. */
  release(): Promise<void>;
}

const MAX_LEASE_SECS = 3600;

function checkOptions(options: ProducerLeaseOptions): { leaseMs: number; renewMs: number; id: string } {
  const leaseSecs = options.leaseSecs ?? 30;
  if (typeof leaseSecs !== 'number' || !Number.isFinite(leaseSecs) || leaseSecs < 1 || leaseSecs > MAX_LEASE_SECS) {
    throw new InvalidOptionsError(`leaseSecs must be a number of seconds from 1 to ${MAX_LEASE_SECS} (got ${String(options.leaseSecs)})`);
  }
  const renewSecs = options.renewEverySecs ?? leaseSecs / 3;
  if (typeof renewSecs !== 'number' || !Number.isFinite(renewSecs) || renewSecs < 0 || renewSecs >= leaseSecs) {
    throw new InvalidOptionsError(
      `renewEverySecs must be 0 (no automatic renewal) or a number of seconds below leaseSecs (${leaseSecs}) (got ${String(options.renewEverySecs)})`,
    );
  }
  const id = options.id ?? `producer:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
    throw new InvalidOptionsError(`a producer lease id must be a string of 1 to 200 characters (got ${JSON.stringify(id)})`);
  }
  return { leaseMs: Math.round(leaseSecs * 1000), renewMs: Math.round(renewSecs * 1000), id };
}

/**
 * Takes a producer lease on the queue of `scripts` and renews it from an unref'd timer until released.
 *
 * @param scripts - the queue's scripts
 * @param options - lease time, renewal interval, id
 * @param onRelease - called once when the lease is released (lets an owner forget it)
 * @returns the lease, already alive in Redis
 * @throws {@link InvalidOptionsError} for a lease time outside 1..3600 s or a renewal interval not below it
 */
export async function openProducerLease(
  scripts: QueueScripts,
  options: ProducerLeaseOptions = {},
  onRelease: (lease: ProducerLease) => void = () => undefined,
): Promise<ProducerLease> {
  checkKnownOptions<ProducerLeaseOptions>('producer lease options', options, { leaseSecs: true, renewEverySecs: true, id: true });
  const { leaseMs, renewMs, id } = checkOptions(options);
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const renew = async (): Promise<Date> => {
    const [expiresAt, wasAlive] = (await scripts.run('renewProducerLease', [id, leaseMs, scripts.offset()], {
      extraKeys: [scripts.keys.leases],
    })) as [number, number];
    if (Number(wasAlive) === 0 && started) {
      log.warning(`crawlee-redis-queue: producer lease ${id} of queue "${scripts.queueName}" had expired before it was renewed; workers may have finished meanwhile`);
    }
    return new Date(Number(expiresAt));
  };
  let started = false;
  await renew();
  started = true;
  const lease: ProducerLease = {
    id,
    renew,
    async release() {
      if (released) return;
      released = true;
      if (timer) clearInterval(timer);
      onRelease(lease);
      await scripts.connection.run(() => scripts.connection.redis.zrem(scripts.keys.leases, id));
    },
  };
  if (renewMs > 0) {
    timer = setInterval(() => {
      renew().catch((error: unknown) => log.warning(`crawlee-redis-queue: renewing producer lease ${id} failed; retrying`, { error: String(error) }));
    }, renewMs);
    timer.unref();
  }
  return lease;
}
