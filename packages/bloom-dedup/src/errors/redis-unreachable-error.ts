// One RedisUnreachableError, from the kit (bundled): the first connect of a URL failed within connectTimeoutSecs.
export { RedisUnreachableError } from '@crawlee-distributed/redis-kit';
