import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** The database index in the URL (`redis://host:port/<db>`) does not exist on that server. */
export class RedisDatabaseError extends DistributedCheerioError {
  /**
   * @param url - the Redis URL, credentials masked
   * @param db - the database index from the URL
   * @param reply - the server's reply
   */
  constructor(url: string, db: number, reply: string) {
    super(
      'E_REDIS_DATABASE',
      `Redis at ${url} has no database ${db} (${reply}). Use an index below the server's \`databases\` setting ` +
        '(16 by default: 0-15), or drop the /<db> part of the URL for database 0. Nothing was started.',
    );
  }
}
