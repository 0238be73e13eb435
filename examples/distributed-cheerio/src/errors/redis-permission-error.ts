import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** Redis accepted the user but its ACL forbids a command or key the crawl needs (`NOPERM`). */
export class RedisPermissionError extends DistributedCheerioError {
  /**
   * @param url - the Redis URL, credentials masked
   * @param reply - the server's reply
   */
  constructor(url: string, reply: string) {
    super(
      'E_REDIS_PERMISSION',
      `Redis at ${url} does not let this user do what the crawl needs (${reply}). The fleet needs the scripting ` +
        '(EVAL/EVALSHA/SCRIPT), hash, set, sorted-set, string, SCAN, INFO and MEMORY commands on the keys under ' +
        '--key-prefix: ask for an ACL such as `+@all ~<prefix>:* ~{<prefix>:*`, or use another user. Nothing was started.',
    );
  }
}
