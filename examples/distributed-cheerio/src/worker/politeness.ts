/**
 * The fleet politeness a run passes to the shared queue (`politeness` of `openRedisRequestQueue`): every worker's
 * `listAndLockHead` hands out a request for host H only when H's next allowed time (Redis time) has come and fewer
 * than `maxConcurrencyPerHost` requests of H are locked. See packages/redis-queue/docs/politeness.md.
 */
export interface FleetPoliteness {
  /** Minimum gap in seconds between two requests to one host as the site sees them (`--host-delay-secs`). */
  minDelaySecs: number;
  /** Most requests of one host in flight across the fleet (`--max-per-host`); unset: unlimited. */
  maxConcurrencyPerHost?: number;
  /** Not-before time of a retried request: min(maxSecs, baseSecs * factor^(retryCount-1)) seconds. */
  retryBackoff: { baseSecs: number; factor: number; maxSecs: number };
}

/**
 * Retry back-off of the example: 1 s, 2 s, 4 s, ... up to 60 s after each failed attempt. No worker takes the retry
 * before then, so the worker that failed it does not spin on it and a struggling site gets a pause.
 */
export const EXAMPLE_RETRY_BACKOFF = { baseSecs: 1, factor: 2, maxSecs: 60 } as const;

/**
 * The politeness of a run. Always on in the example (a host delay of 0 and no concurrency limit when no flag is
 * given): the host schedule is what `backOffHost` pushes, so a 429 with `Retry-After` holds the whole fleet back by
 * default.
 *
 * @param hostDelaySecs - `--host-delay-secs` (unset: 0)
 * @param maxPerHost - `--max-per-host` (unset: 1 with a delay, else unlimited: {@link effectiveMaxPerHost})
 */
export function fleetPoliteness(hostDelaySecs: number | undefined, maxPerHost: number | undefined): FleetPoliteness {
  const limit = effectiveMaxPerHost(hostDelaySecs, maxPerHost);
  return {
    minDelaySecs: hostDelaySecs ?? 0,
    ...(limit !== undefined ? { maxConcurrencyPerHost: limit } : {}),
    retryBackoff: { ...EXAMPLE_RETRY_BACKOFF },
  };
}

/**
 * The per-host limit in force: `--max-per-host`, or the queue's own default when it is left out (1 with a host
 * delay above 0, so the gap holds as the site sees it; unlimited without a delay). Written out here so the summary
 * shows the limit the queue enforces and a resume with the same flags matches the queue it created.
 * @param hostDelaySecs - `--host-delay-secs`
 * @param maxPerHost - `--max-per-host`
 */
export function effectiveMaxPerHost(hostDelaySecs: number | undefined, maxPerHost: number | undefined): number | undefined {
  return maxPerHost ?? ((hostDelaySecs ?? 0) > 0 ? 1 : undefined);
}
