// One RedisFailoverTimeoutError, from the kit (bundled): failover errors outlasted failoverTimeoutSecs.
export { RedisFailoverTimeoutError } from '@crawlee-distributed/redis-kit';
