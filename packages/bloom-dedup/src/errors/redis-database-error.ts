// One RedisDatabaseError, from the kit (bundled): the URL's database index is out of range.
export { RedisDatabaseError } from '@crawlee-distributed/redis-kit';
