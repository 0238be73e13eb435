import { log } from 'crawlee';
import { HostThrottledError, MAX_THROTTLED_RETRIES } from '../errors/host-throttled-error.js';
import { parseRetryAfter } from './retry-after.js';

/** The two methods of the politeness API this file uses (`RedisRequestQueue`, `RedisRequestQueueClient`). */
export interface HostBackoffQueue {
  /** Pushes the host's next allowed time for the whole fleet to at least now + delaySecs (Redis time). */
  backOffHost(host: string, delaySecs: number): Promise<void>;
  /** Host key of a URL with the queue's `hostKey`. */
  hostKeyOf(url: string): string;
}

/** When a run of errors backs a host off, and for how long. */
export interface ErrorRunOptions {
  /** Failed attempts in a row, in this process, from one host that back it off. @defaultValue 3 */
  errors: number;
  /** Seconds of the first back-off of a run; each further run without a success in between doubles it. @defaultValue 2 */
  baseSecs: number;
  /** Longest back-off of a run of errors, in seconds. @defaultValue 120 */
  maxSecs: number;
}

export const DEFAULT_ERROR_RUN: ErrorRunOptions = { errors: 3, baseSecs: 2, maxSecs: 120 };

/** Statuses whose `Retry-After` asks the whole fleet to wait (RFC 9110 10.2.3, RFC 6585 4). */
const THROTTLE_STATUSES = new Set([429, 503]);

/**
 * Turns what a site answers into fleet-wide back-offs on the shared queue: a 429 or 503 with `Retry-After` backs its
 * host off by that much; a run of failed attempts from one host (time-outs, refused connections, 5xx, a 429/503
 * without `Retry-After`) backs it off exponentially, as Scrapy's AutoThrottle and Heritrix's politeness do for a
 * struggling site. The run is counted per process (a success resets it); the back-off it causes holds for every
 * worker, because the host's next allowed time lives in the queue.
 */
export class HostBackoff {
  /** Per host: failed attempts in a row, and the back-offs of the current run (the exponent). */
  private readonly runs = new Map<string, { errors: number; backoffs: number }>();

  constructor(
    private readonly queue: HostBackoffQueue,
    private readonly onBackoff: (host: string, secs: number, why: string) => Promise<void> = () => Promise.resolve(),
    private readonly errorRun: ErrorRunOptions = DEFAULT_ERROR_RUN,
  ) {}

  /**
   * Checks a response before Crawlee parses it (a `postNavigationHooks` entry): a 429 or 503 backs its host off and
   * throws {@link HostThrottledError}, so the request is retried once the host is allowed again.
   *
   * @throws {@link HostThrottledError} for a 429/503 while the request has retries of that kind left; after that an
   *   ordinary `Error` (Crawlee's `maxRequestRetries` decides)
   */
  async checkResponse(url: string, status: number | undefined, retryAfter: string | string[] | undefined, retryCount: number): Promise<void> {
    if (status === undefined || !THROTTLE_STATUSES.has(status)) return;
    const host = this.queue.hostKeyOf(url);
    const asked = parseRetryAfter(retryAfter, Date.now());
    const waitSecs = asked !== undefined ? await this.backOff(host, asked, `${status} with Retry-After`) : await this.noteError(url);
    if (retryCount < MAX_THROTTLED_RETRIES) throw new HostThrottledError(host, status, waitSecs);
    throw new Error(`${host} answered ${status} on ${MAX_THROTTLED_RETRIES} tries of this request`);
  }

  /**
   * Counts a failed attempt (not a throttling answer: {@link checkResponse} counted that one) against its host.
   *
   * @returns the seconds the host was backed off for, 0 when the run is not long enough yet
   */
  async noteError(url: string): Promise<number> {
    const host = this.queue.hostKeyOf(url);
    const run = this.runs.get(host) ?? { errors: 0, backoffs: 0 };
    run.errors += 1;
    this.runs.set(host, run);
    if (run.errors < this.errorRun.errors) return 0;
    run.errors = 0;
    run.backoffs += 1;
    const secs = Math.min(this.errorRun.maxSecs, this.errorRun.baseSecs * 2 ** (run.backoffs - 1));
    return this.backOff(host, secs, `${this.errorRun.errors} failed attempts in a row`);
  }

  /** A page of this host was handled: its run of errors is over. */
  noteSuccess(url: string): void {
    if (this.runs.size > 0) this.runs.delete(this.queue.hostKeyOf(url));
  }

  private async backOff(host: string, secs: number, why: string): Promise<number> {
    try {
      await this.queue.backOffHost(host, secs);
      await this.onBackoff(host, secs, why);
    } catch (error) {
      // The request still goes back to the queue (and is retried with its own not-before time): a back-off that did
      // not reach Redis only makes the fleet less polite for this once, it loses nothing.
      log.warning(`could not back off ${host} for ${secs} s (${(error as Error).message})`);
    }
    return secs;
  }
}
