export { UsageError } from './usage-error.js';
export { RedisUnreachableError } from './redis-unreachable-error.js';
export { QueueHasNoRequestsError } from './queue-has-no-requests-error.js';
