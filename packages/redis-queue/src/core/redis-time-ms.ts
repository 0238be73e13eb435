/**
 * Milliseconds of a Redis `TIME` reply (`[seconds, microseconds]`, as strings or numbers): the clock every lock,
 * lease and heartbeat is measured on, read the way the scripts read it (includes/redis-time.lua), so a client and a
 * script agree to the millisecond.
 *
 * @param time - the `TIME` reply
 * @returns milliseconds since the epoch, Redis time
 */
export function redisTimeMs(time: readonly [string | number, string | number]): number {
  return Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
}
