import { RetryRequestError } from 'crawlee';

/**
 * Thrown by the worker's post-navigation hook when a host answers 429 (Too Many Requests) or 503 (Service
 * Unavailable): the host has been backed off for the whole fleet, and the request goes back to the queue. A
 * `RetryRequestError`, so Crawlee retries it without using up `maxRequestRetries` (the site asked us to come back
 * later; it did not fail the page); the hook stops throwing it after {@link MAX_THROTTLED_RETRIES} retries, so a
 * site that never stops throttling ends in a failed request instead of an endless loop.
 */
export class HostThrottledError extends RetryRequestError {
  /**
   * @param host - the host key (the queue's `hostKeyOf`)
   * @param status - the HTTP status, 429 or 503
   * @param waitSecs - seconds the host was backed off for
   */
  constructor(
    readonly host: string,
    readonly status: number,
    readonly waitSecs: number,
  ) {
    super(`${host} answered ${status}; the fleet waits ${waitSecs.toFixed(1)} s before its next request to it`);
    this.name = 'HostThrottledError';
  }
}

/** Retries of one request caused by throttling answers before the answer counts as an ordinary failed attempt. */
export const MAX_THROTTLED_RETRIES = 10;
