// The kit's one masking rule (bundled), exported for users who log or persist a Redis URL themselves.
export { maskRedisUrl } from '@crawlee-distributed/redis-kit';
