import type { PolitenessStats } from 'crawlee-redis-queue';
import type { RunOptions } from '../options.js';
import { PolitenessFlagsMismatchError } from '../errors/politeness-flags-mismatch-error.js';
import { effectiveMaxPerHost, fleetPoliteness, type FleetPoliteness } from '../worker/politeness.js';

function describe(delaySecs: number, maxPerHost: number | undefined): string {
  return `--host-delay-secs ${delaySecs}${maxPerHost === undefined ? '' : ` --max-per-host ${maxPerHost}`}`;
}

/**
 * The politeness of this run. A new queue takes the flags; a queue that exists already (a resume, a `--join`)
 * keeps the politeness it was created with (the queue refuses a client with other settings), so the flags may be
 * left out there, and flags that differ are refused up front.
 *
 * @param options - the run's options
 * @param stored - the queue's politeness state (`RedisQueueAdmin.politenessStats()`)
 * @param exists - the queue holds requests or a seeding run is adding to it
 * @returns the politeness to open the queue with, or undefined for an existing queue created without politeness
 *   (an older run): it is crawled as it was created, without host back-off
 * @throws {@link PolitenessFlagsMismatchError} when the flags contradict the existing queue
 */
export function politenessForQueue(options: RunOptions, stored: PolitenessStats, exists: boolean): FleetPoliteness | undefined {
  const given = options.hostDelaySecs !== undefined || options.maxPerHost !== undefined;
  if (!exists) return fleetPoliteness(options.hostDelaySecs, options.maxPerHost);
  if (!stored.enabled) {
    if (given) throw new PolitenessFlagsMismatchError(options.runQueueName, 'no politeness', describe(options.hostDelaySecs ?? 0, options.maxPerHost));
    return undefined;
  }
  const maxPerHost = stored.maxConcurrencyPerHost === 0 ? undefined : stored.maxConcurrencyPerHost;
  // The same flags as the run that created the queue always match: a left-out --max-per-host means the queue's
  // default (1 with a delay), which is what the queue recorded.
  const asked = effectiveMaxPerHost(options.hostDelaySecs, options.maxPerHost);
  if (given && ((options.hostDelaySecs ?? 0) !== stored.minDelaySecs || asked !== maxPerHost)) {
    throw new PolitenessFlagsMismatchError(
      options.runQueueName,
      describe(stored.minDelaySecs, maxPerHost),
      describe(options.hostDelaySecs ?? 0, options.maxPerHost),
    );
  }
  return fleetPoliteness(stored.minDelaySecs, maxPerHost);
}
