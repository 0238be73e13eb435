/** Socket-level failure codes of a fetch: the server is not there (any more), as opposed to a slow answer. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/**
 * True when a fetch failed because the connection was refused or cut (got reports the code on the error or its
 * cause, sometimes only in the message).
 *
 * @param error - what the crawler's error handler received
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /\b(ECONNREFUSED|ECONNRESET)\b/.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** True when the failure is a refused connection (nothing listens): the one cause worth naming in a message. */
export function isConnectionRefused(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === 'ECONNREFUSED' || (typeof e.message === 'string' && e.message.includes('ECONNREFUSED'))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
