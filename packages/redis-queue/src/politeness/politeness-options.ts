import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { integerOption, numberOption } from '../options/option-ranges.js';
import { defaultHostKey } from './host-key.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Not-before time of a retried (reclaimed) request: `min(maxSecs, baseSecs * factor^(retryCount - 1))` seconds
 * after the reclaim (Redis time), so no worker takes it early and the worker that failed it does not spin on it. */
export interface RetryBackoffOptions {
  /** Delay of the first retry in seconds, 0 to 86,400. @defaultValue 1 */
  baseSecs?: number;
  /** Growth per further retry, 1 to 100. @defaultValue 2 */
  factor?: number;
  /** Longest delay in seconds, 0 to 604,800 (7 days). @defaultValue 300 */
  maxSecs?: number;
}

/**
 * Fleet-wide politeness, enforced by the queue's Lua for every worker of the queue (see `docs/politeness.md`):
 * `listAndLockHead` hands out a request of host H only when H's next allowed time (Redis time) has come and fewer
 * than `maxConcurrencyPerHost` requests of H are locked. Fixed when the queue is created: every worker must open
 * it with the same `minDelaySecs` and `maxConcurrencyPerHost` (else {@link PolitenessMismatchError}).
 */
export interface PolitenessOptions {
  /** Minimum gap in seconds between two requests to one host as the site sees them: counted from the later of
   * the hand-out and the end (handled/reclaimed) of the host's previous request. 0..86400. @defaultValue 0 */
  minDelaySecs?: number;
  /** Most requests of one host locked at once across the fleet. 1..10000. With 1, a host's next request is
   * handed out only after its previous one ended (handled or reclaimed) plus `minDelaySecs`, so the gap holds as the
   * site sees it even when a worker holds a request in its local buffer before sending it; with more, the
   * hand-outs are spaced by `minDelaySecs` and may overlap. @defaultValue 1 when `minDelaySecs` is above 0 (one
   * request per host at a time, as Heritrix and Nutch do), else unlimited */
  maxConcurrencyPerHost?: number;
  /** Host key of a URL. Must return a non-empty string of at most 512 characters.
   * @defaultValue the URL's hostname, lower-cased, with the port when it is not the scheme's default
   * (subdomains are separate hosts: `a.example.com` and `b.example.com` have their own delays) */
  hostKey?: (url: string) => string;
  /** Not-before time of a retried (reclaimed) request: min(maxSecs, baseSecs * factor^(retryCount-1)); `false`:
   * a reclaimed request is available at once (still subject to its host's delay).
   * @defaultValue baseSecs 1, factor 2, maxSecs 300 */
  retryBackoff?: RetryBackoffOptions | false;
}

/** Resolved politeness settings of a queue context. */
export interface PolitenessSettings {
  /** Minimum gap per host in ms. */
  readonly minDelayMs: number;
  /** Most locked requests per host; 0: unlimited. */
  readonly maxConcurrency: number;
  readonly hostKey: (url: string) => string;
  /** Retry backoff in ms, or undefined when off. */
  readonly retryBackoff?: { readonly baseMs: number; readonly factor: number; readonly maxMs: number };
}

/**
 * Checks the `politeness` option.
 * @param options - the option as given (undefined: no politeness)
 * @returns the settings, or undefined without politeness
 * @throws {@link InvalidOptionsError} for a value out of its range (`src/options/option-ranges.ts`) or a hostKey
 *   that is not a function
 */
export function politenessSettings(options: PolitenessOptions | undefined): PolitenessSettings | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError(`politeness must be an object such as { minDelaySecs: 1 } (got ${String(options)})`);
  }
  checkKnownOptions<PolitenessOptions>('politeness', options, { minDelaySecs: true, maxConcurrencyPerHost: true, hostKey: true, retryBackoff: true });
  const minDelaySecs = numberOption('politeness.minDelaySecs', options.minDelaySecs);
  // A delay without a concurrency limit would let a worker that buffers a request send it after the next one was
  // handed out: one at a time unless asked otherwise, so the gap holds as the site sees it.
  const maxConcurrency =
    options.maxConcurrencyPerHost === undefined ? (minDelaySecs > 0 ? 1 : 0) : integerOption('politeness.maxConcurrencyPerHost', options.maxConcurrencyPerHost);
  const hostKey = options.hostKey ?? defaultHostKey;
  if (typeof hostKey !== 'function') throw new InvalidOptionsError('politeness.hostKey must be a function (url) => string');
  let retryBackoff: PolitenessSettings['retryBackoff'];
  if (options.retryBackoff !== false) {
    const rb = options.retryBackoff ?? {};
    if (typeof rb !== 'object' || rb === null) throw new InvalidOptionsError('politeness.retryBackoff must be an object or false');
    checkKnownOptions<RetryBackoffOptions>('politeness.retryBackoff', rb, { baseSecs: true, factor: true, maxSecs: true });
    retryBackoff = {
      baseMs: Math.round(numberOption('politeness.retryBackoff.baseSecs', rb.baseSecs) * 1000),
      factor: numberOption('politeness.retryBackoff.factor', rb.factor),
      maxMs: Math.round(numberOption('politeness.retryBackoff.maxSecs', rb.maxSecs) * 1000),
    };
  }
  return { minDelayMs: Math.round(minDelaySecs * 1000), maxConcurrency, hostKey, retryBackoff };
}

/**
 * Not-before delay of a reclaimed request in ms: `min(maxMs, baseMs * factor^(retryCount - 1))`, 0 before the
 * first retry (a reclaim that is not a retry, e.g. a released buffer) or without retry backoff (the exponential
 * backoff of BullMQ / Celery `retry_backoff`, on Crawlee's `retryCount`).
 * @param settings - the queue's politeness
 * @param retryCount - the request's retryCount (Crawlee raises it before a reclaim)
 */
export function retryDelayMs(settings: PolitenessSettings, retryCount: unknown): number {
  const rb = settings.retryBackoff;
  if (!rb || typeof retryCount !== 'number' || !(retryCount >= 1)) return 0;
  return Math.min(rb.maxMs, Math.round(rb.baseMs * rb.factor ** Math.min(retryCount - 1, 1000)));
}
