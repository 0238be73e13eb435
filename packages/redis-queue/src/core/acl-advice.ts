/**
 * What a crawlee-redis-queue user needs from a Redis ACL, for the message of every `RedisPermissionError` the queue
 * throws: the key patterns of its prefix (every queue's keys share the hash tag `{<prefix>:rq:<name>}`, sharded
 * ones `{<prefix>:rq:<name>#...}`) and the commands (the queue runs Lua scripts: EVALSHA, EVAL, and SCRIPT LOAD for
 * pipelined calls, and the scripts call TIME and the data commands). "ACL for a least-privilege worker" in docs/security.md
 * has the whole rule.
 *
 * @param keyPrefix - the queues' key prefix
 */
export function queueAclAdvice(keyPrefix: string): string {
  return (
    `A crawlee-redis-queue user with keyPrefix "${keyPrefix}" needs the key patterns \`~{${keyPrefix}:rq:*\` and ` +
    `\`~${keyPrefix}:rq:index\` (and \`~{${keyPrefix}:ds:* ~${keyPrefix}:ds:index\` for Redis datasets) and the ` +
    'commands `+@all -@dangerous` (at least the scripting commands EVALSHA, EVAL and SCRIPT, and the commands the ' +
    'scripts call, TIME among them), e.g. `ACL SETUSER <user> on >PASSWORD ' +
    `~{${keyPrefix}:rq:* ~${keyPrefix}:rq:index +@all -@dangerous +info\`.`
  );
}
