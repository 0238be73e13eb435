import type { QueueScripts } from '../core/queue-scripts.js';

/** Politeness state of a queue (see `docs/politeness.md`), read in one atomic step on Redis time. */
export interface PolitenessStats {
  /** Whether the queue was created with politeness (all other fields are 0 / empty without it). */
  enabled: boolean;
  /** Minimum gap per host the queue enforces, in seconds (the setting it was created with). */
  minDelaySecs: number;
  /** Most locked requests per host (0: unlimited). */
  maxConcurrencyPerHost: number;
  /** Hosts with available requests (due, waiting, or at their concurrency limit). */
  hosts: number;
  /** Hosts with available requests that must wait: next allowed time in the future, or at max concurrency. */
  hostsWaiting: number;
  /** The longest current wait of a host with available requests until its next allowed time, in seconds. */
  longestWaitSecs: number;
  /** Retried requests waiting for their not-before time (`retryBackoff`). */
  delayed: number;
  /** Locked requests per host, the `top` hosts with the most, by count. */
  inFlight: Record<string, number>;
  /** Seconds until the next allowed time of the `top` hosts that wait longest (hosts with available requests whose
   * time has not come: their delay or a backoff), longest first. A host at its concurrency limit is in `inFlight`. */
  waiting: Record<string, number>;
}

/** Default number of hosts listed in {@link PolitenessStats.inFlight}. */
export const DEFAULT_IN_FLIGHT_TOP = 20;

/**
 * Reads the politeness state of a queue (`politeness-stats.lua`; O(hosts in flight + log hosts)).
 * @param scripts - the queue's scripts
 * @param top - hosts listed in `inFlight` (1..1000)
 */
export async function readPolitenessStats(scripts: QueueScripts, top = DEFAULT_IN_FLIGHT_TOP): Promise<PolitenessStats> {
  const reply = (await scripts.run('politenessStats', [scripts.offset(), Math.max(1, Math.min(1000, Math.trunc(top)))])) as Array<string | number>;
  const [enabled, minDelayMs, maxConc, hosts, hostsWaiting, longestWaitMs, delayed] = reply.slice(0, 7).map(Number);
  const inFlight: Record<string, number> = {};
  const waiting: Record<string, number> = {};
  const pairsEnd = 8 + 2 * Number(reply[7] ?? 0);
  for (let i = 8; i + 1 < pairsEnd; i += 2) inFlight[String(reply[i])] = Number(reply[i + 1]);
  for (let i = pairsEnd; i + 1 < reply.length; i += 2) waiting[String(reply[i])] = Number(reply[i + 1]) / 1000;
  return {
    enabled: enabled === 1,
    minDelaySecs: minDelayMs! / 1000,
    maxConcurrencyPerHost: maxConc!,
    hosts: hosts!,
    hostsWaiting: hostsWaiting!,
    longestWaitSecs: Math.max(0, longestWaitMs!) / 1000,
    delayed: delayed!,
    inFlight,
    waiting,
  };
}
