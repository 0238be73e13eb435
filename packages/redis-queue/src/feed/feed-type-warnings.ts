import { log } from 'crawlee';
import type { StartUrlFeedTypeError } from '../errors/start-url-feed-type-error.js';

/**
 * Remembers which feed keys were found holding a type the feed cannot read, so a drain that meets one logs one
 * warning per key and type change (not one per poll) and skips the key: the queue keeps being crawled, and the key
 * is read again as soon as it holds a readable type. Only the open-time check throws (a wrong key before the crawl
 * starts is a configuration error; one that changes mid-run is someone else's write, i.e. input).
 */
export class FeedTypeWarnings {
  private readonly wrong = new Map<string, string>();

  /** @param error - the wrong-type error met while draining `error.key` */
  skip(error: StartUrlFeedTypeError): void {
    if (this.wrong.get(error.key) === error.actualType) return;
    this.wrong.set(error.key, error.actualType);
    log.warning(`crawlee-redis-queue: ${error.message}; the feed skips this key until it is fixed, the queue keeps being crawled`);
  }

  /** @param key - a feed key that was readable this time (a later wrong type warns again) */
  readable(key: string): void {
    this.wrong.delete(key);
  }
}
