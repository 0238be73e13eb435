// One RedisAuthError, from the kit (bundled): Redis refused the credentials (NOAUTH, WRONGPASS) at the first connect.
export { RedisAuthError } from '@crawlee-distributed/redis-kit';
