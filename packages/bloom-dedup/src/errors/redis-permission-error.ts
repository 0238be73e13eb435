// One RedisPermissionError, from the kit (bundled): the user's ACL refuses a command or key (NOPERM).
export { RedisPermissionError } from '@crawlee-distributed/redis-kit';
