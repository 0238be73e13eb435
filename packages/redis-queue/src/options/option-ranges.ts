import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * The documented range of every numeric option of crawlee-redis-queue (docs/api.md's table of ranges lists the same
 * numbers). Checked up front, before any connection or key exists, so a bad value is
 * an {@link InvalidOptionsError} and nothing is written (a huge batch would otherwise overflow the stack inside
 * ioredis; NaN or Infinity would reach the Lua scripts).
 */
export const OPTION_RANGES = {
  addBatchSize: { min: 1, max: 5000, default: 500 },
  recoverLimit: { min: 1, max: 10_000, default: 1000 },
  maxStalls: { min: 0, max: 1000, default: 3 },
  'startUrls.batchSize': { min: 1, max: 10_000, default: 100 },
  'startUrls.maxIdleSecs': { min: 0, max: 7 * 86_400, default: 0 },
  connectTimeoutSecs: { min: 0.001, max: 3600, default: 10 },
  failoverTimeoutSecs: { min: 0, max: 3600, default: 30 },
  // Timers hold at most 2^31 - 1 ms (24.8 days); a week outlasts any restart worth waiting for.
  reconnectTimeoutSecs: { min: 0.001, max: 7 * 86_400, default: 60 },
  'durability.replicas': { min: 1, max: 16, default: 1 },
  // WAIT with timeout 0 blocks for ever: a lost replica would hang every write.
  'durability.timeoutSecs': { min: 0.001, max: 3600, default: 1 },
  requestHandlerTimeoutSecs: { min: 0.001, max: 30 * 24 * 3600, default: 60 },
  clockOffsetMs: { min: -(2 ** 40), max: 2 ** 40, default: 0 },
  // Node timers hold at most 2^31 - 1 ms; a longer interval silently becomes 1 ms.
  'workerStats.intervalSecs': { min: 0.1, max: 86_400, default: 15 },
  'workerStats.ttlSecs': { min: 0.1, max: 7 * 86_400, default: 45 },
  'workerStats.deadRetentionSecs': { min: 0, max: 30 * 86_400, default: 600 },
  maxHostWaitSecs: { min: 0, max: 60, default: 2 },
  'liveness.heartbeatSecs': { min: 0.01, max: 3600, default: 1 },
  'liveness.windowSecs': { min: 0.05, max: 86_400, default: 5 },
  retentionSecs: { min: 0, max: 30 * 86_400, default: 600 },
  port: { min: 0, max: 65_535, default: 8370 },
  cacheMs: { min: 0, max: 3_600_000, default: 1000 },
  chunkSize: { min: 1, max: 100_000, default: 1000 },
  'politeness.minDelaySecs': { min: 0, max: 86_400, default: 0 },
  // Absent: 1 with a minDelaySecs above 0, else unlimited (stored as 0); a value given is 1..10,000.
  'politeness.maxConcurrencyPerHost': { min: 1, max: 10_000, default: 1 },
  'politeness.retryBackoff.baseSecs': { min: 0, max: 86_400, default: 1 },
  'politeness.retryBackoff.factor': { min: 1, max: 100, default: 2 },
  'politeness.retryBackoff.maxSecs': { min: 0, max: 7 * 86_400, default: 300 },
  'backOffHost.delaySecs': { min: 0, max: 7 * 86_400, default: 0 },
  // Each shard's tag is placed in its own 1/S of the 16384 slots (shard-keys.ts); 256 keeps each range 64 slots wide.
  shards: { min: 1, max: 256, default: 1 },
  // 1e10 at 1e-6 is a 36 GB filter (67 blocks): beyond that, shard the crawl.
  'handledBloom.expectedRequests': { min: 1, max: 10_000_000_000, default: 1_000_000 },
  // Above 0.1 the filter skips one new request in ten; below 1e-12 it costs 58 bits per request for nothing measurable.
  'handledBloom.falsePositiveRate': { min: 1e-12, max: 0.1, default: 1e-6 },
} as const;

/** The name of an option with a documented range. */
export type RangedOption = keyof typeof OPTION_RANGES;

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || value === null || value === undefined ? String(value) : `a ${typeof value}`;
}

/**
 * A whole-number option within its range.
 * @param name - the option
 * @param value - the value given (undefined: the default)
 * @returns the value or the default
 * @throws {@link InvalidOptionsError} for a non-number, NaN, ±Infinity, a fraction or a value outside the range
 */
export function integerOption(name: RangedOption, value: unknown): number {
  const { min, max, default: fallback } = OPTION_RANGES[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionsError(`${name} must be a whole number from ${min} to ${max} (got ${describe(value)}); the default is ${fallback}`);
  }
  return value;
}

/**
 * A finite number option within its range (seconds, milliseconds).
 * @param name - the option
 * @param value - the value given (undefined: the default)
 * @returns the value or the default
 * @throws {@link InvalidOptionsError} for a non-number, NaN, ±Infinity or a value outside the range
 */
export function numberOption(name: RangedOption, value: unknown): number {
  const { min, max, default: fallback } = OPTION_RANGES[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidOptionsError(`${name} must be a number from ${min} to ${max} (got ${describe(value)}); the default is ${fallback}`);
  }
  return value;
}
