import { RedisFailoverTimeoutError } from '../errors/redis-failover-timeout-error.js';

/** Replies Redis gives while a master fails over or a node starts: the same command succeeds a moment later. A MOVED
 * or ASK reaches us when ioredis did not follow it itself (a script resent as EVAL after NOSCRIPT, a pipeline). */
const FAILOVER_REPLY = /^(CLUSTERDOWN|TRYAGAIN|READONLY|LOADING|MASTERDOWN|MOVED|ASK)\b/;
/** ioredis' own errors while a node is gone or the slot map is being rebuilt. */
const FAILOVER_CLIENT_ERROR = /^(Connection is closed|Command aborted due to connection close|Node is disconnected|No master node is available|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available|Stream isn't writeable|Cluster isn't ready)/;
const FAILOVER_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/**
 * True for an error that a failover or a restarting node causes and that goes away by itself: retrying the same
 * operation later is the fix. Anything else (a script error, NOPERM, OOM, CROSSSLOT) is final.
 * @param error - what a command rejected with
 */
export function isFailoverError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return FAILOVER_REPLY.test(error.message) || FAILOVER_CLIENT_ERROR.test(error.message) || (typeof code === 'string' && FAILOVER_CODES.has(code));
}

/** Options of {@link retryThroughFailover}. */
export interface FailoverRetryOptions {
  /** Milliseconds to keep retrying after the first failover error; 0 retries nothing. */
  timeoutMs: number;
  /** Who asks, for the error message (e.g. `crawlee-redis-queue`). */
  context: string;
  /** False when retrying is pointless, e.g. the connection was closed on purpose. @defaultValue always true */
  retryable?: () => boolean;
  /** Told of each failover error before its retry (e.g. to refresh the Cluster's slot map). */
  onRetry?: (error: Error) => void;
}

/**
 * Runs an operation and retries it, with a growing delay (50 ms doubling to 1 s), while it fails with a failover
 * error ({@link isFailoverError}), for at most `timeoutMs` after the first one. ioredis' Cluster client retries
 * commands that had not left the client yet (`retryDelayOnFailover`, bounded by `maxRedirections`) but rejects a
 * command that was in flight on the connection that died; this retries that one too. Use it only for operations
 * that may run twice: a command whose reply was lost may have run.
 *
 * @param operation - the operation
 * @param options - bound, context, retry hook
 * @returns the operation's result
 * @throws {@link RedisFailoverTimeoutError} when failover errors last longer than `timeoutMs` after the first one
 *   (its cause: the last one)
 * @throws the operation's error when it is not a failover error
 */
export async function retryThroughFailover<T>(operation: () => Promise<T>, options: FailoverRetryOptions): Promise<T> {
  let deadline: number | undefined;
  let delayMs = 50;
  let lastError: unknown;
  for (;;) {
    try {
      // After the first failover error the bound is a deadline: an attempt that hangs inside the client (ioredis
      // waiting for a node that is gone) is given up at it; its command may still run, as any lost reply's may.
      return await (deadline === undefined ? operation() : raceDeadline(operation(), deadline));
    } catch (error) {
      if (error instanceof DeadlineReached) throw new RedisFailoverTimeoutError(options.context, options.timeoutMs / 1000, { cause: lastError });
      if (options.timeoutMs <= 0 || !isFailoverError(error) || options.retryable?.() === false) throw error;
      lastError = error;
      deadline ??= Date.now() + options.timeoutMs;
      if (Date.now() + delayMs > deadline) {
        throw new RedisFailoverTimeoutError(options.context, options.timeoutMs / 1000, { cause: error });
      }
      options.onRetry?.(error as Error);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 1000);
    }
  }
}

class DeadlineReached extends Error {}

function raceDeadline<T>(attempt: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineReached()), Math.max(0, deadline - Date.now()));
  });
  // The attempt may settle after the deadline; its rejection must not become an unhandled one.
  attempt.catch(() => undefined);
  return Promise.race([attempt, timeout]).finally(() => clearTimeout(timer));
}
