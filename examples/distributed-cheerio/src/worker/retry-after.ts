/** The longest wait a `Retry-After` may ask for, in seconds: one day, the queue's range of `backOffHost`. */
export const MAX_RETRY_AFTER_SECS = 86_400;

/**
 * Seconds a `Retry-After` header asks the client to wait (RFC 9110, section 10.2.3): either a number of seconds
 * (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`), counted from `nowMs`. A date in the past is 0; a wait
 * over {@link MAX_RETRY_AFTER_SECS} is cut to it (a site asking for a month is asked again tomorrow).
 *
 * @param value - the header as Node's `IncomingMessage.headers` gives it (a repeated header: the first one counts)
 * @param nowMs - the local clock in milliseconds since the epoch (the date form is relative to it)
 * @returns the wait in seconds, or undefined when there is no header or it is neither form (then the caller backs
 *   off as for any error run)
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+$/.test(raw)) return Math.min(MAX_RETRY_AFTER_SECS, Number(raw));
  // Only the HTTP-date forms carry a weekday or a month name; a bare "2.5" or "-1" is neither form.
  if (!/[A-Za-z]/.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECS, Math.max(0, (at - nowMs) / 1000));
}
