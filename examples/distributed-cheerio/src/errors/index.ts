export { UsageError } from './usage-error.js';
export { RedisUnreachableError } from './redis-unreachable-error.js';
