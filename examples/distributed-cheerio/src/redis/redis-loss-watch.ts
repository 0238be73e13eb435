import type { Cluster, Redis } from 'ioredis';
import { RedisConnectionLostError } from '../errors/redis-connection-lost-error.js';
import { maskUrl } from '../mask-credentials.js';

/** Seconds a lost Redis connection may take to come back, the queue's own default unless the environment says. */
const DEFAULT_RECONNECT_TIMEOUT_SECS = 60;

/**
 * The reconnect budget of every process of a run: `REDIS_RECONNECT_TIMEOUT_SECS` (seconds, 0.1 to 604,800), else 60
 * s, the queue's default. A restart shorter than this is waited through.
 */
export function reconnectTimeoutSecs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.REDIS_RECONNECT_TIMEOUT_SECS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_RECONNECT_TIMEOUT_SECS;
  const secs = Number(raw);
  return Number.isFinite(secs) && secs >= 0.1 && secs <= 604_800 ? secs : DEFAULT_RECONNECT_TIMEOUT_SECS;
}

/**
 * Watches a connection that was ready: when it closes and is not ready again within `budgetSecs`, calls `onLost`
 * once (the process then stops with one clear line instead of hanging on a Redis that is gone). Also listens for
 * its `error` events, so ioredis prints no "Unhandled error event" per reconnect attempt.
 *
 * @param redis - the process's connection (ioredis retries it; commands wait with `maxRetriesPerRequest: null`)
 * @param who - the process, for the message (`vm/worker-1`, `coordinator`)
 * @param url - the Redis URL (masked in the message)
 * @param budgetSecs - the reconnect budget, in seconds
 * @param onLost - told once, with the error to print
 * @returns a function that stops watching
 */
export function watchRedisLoss(redis: Redis | Cluster, who: string, url: string, budgetSecs: number, onLost: (error: RedisConnectionLostError) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let lastError: string | undefined;
  let fired = false;
  const onError = (error: Error) => (lastError = error.message);
  const onClose = () => {
    if (timer !== undefined || fired) return;
    timer = setTimeout(() => {
      fired = true;
      onLost(new RedisConnectionLostError(who, maskUrl(url), budgetSecs, lastError));
    }, budgetSecs * 1000);
  };
  const onReady = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  redis.on('error', onError);
  redis.on('close', onClose);
  redis.on('ready', onReady);
  return () => {
    clearTimeout(timer);
    redis.off('error', onError);
    redis.off('close', onClose);
    redis.off('ready', onReady);
  };
}
