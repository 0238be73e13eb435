// One RedisTlsError, from the kit (bundled): the TLS part of the first connect failed.
export { RedisTlsError } from '@crawlee-distributed/redis-kit';
