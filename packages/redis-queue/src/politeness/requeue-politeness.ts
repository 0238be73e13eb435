import type { QueueScripts } from '../core/queue-scripts.js';
import { defaultHostKey, hostKeyChecked } from './host-key.js';
import { politeHostsArg } from './queue-politeness.js';

/**
 * How an admin operation that puts requests back into a queue (dead-letter requeue, failed requeue, scrapy-redis
 * takeover) names their hosts. On a polite queue every available request sits in its host's queue, and the host is
 * the workers' `hostKey` of the request's URL: computed here in TypeScript with the same function
 * (`hostKeyChecked`, the add path's), and passed to the script last (includes/polite-requeue.lua), which places the
 * request and schedules the host in the same atomic step. On an unpolite queue it passes nothing.
 */
export class RequeuePoliteness {
  private constructor(
    /** Whether the queue was created with politeness (its meta, read once: the mode never changes). */
    readonly polite: boolean,
    private readonly hostKey: (url: string) => string,
  ) {}

  /**
   * Reads whether the queue (or shard) is polite.
   * @param scripts - the queue's scripts
   * @param hostKey - the workers' `politeness.hostKey` (default: {@link defaultHostKey})
   * @returns the helper for this queue
   */
  static async of(scripts: QueueScripts, hostKey: ((url: string) => string) | undefined): Promise<RequeuePoliteness> {
    const { redis } = scripts.connection;
    const polite = (await scripts.connection.run(() => redis.hexists(scripts.keys.meta, 'politeMinDelayMs'))) === 1;
    return new RequeuePoliteness(polite, hostKey ?? defaultHostKey);
  }

  /**
   * The host key of a request's URL on a polite queue ('' on an unpolite one, where no host is needed).
   * @param url - the request URL
   * @throws {@link InvalidRequestError} on a polite queue when the URL has no host key (not a URL, or the hostKey
   *   function throws or returns no usable key)
   */
  hostOf(url: string): string {
    return this.polite ? hostKeyChecked(this.hostKey, url) : '';
  }

  /** @param hosts - per entry of the call, its host ('' for an entry that is no request)
   * @returns the last script argument on a polite queue, else nothing */
  args(hosts: readonly string[]): string[] {
    return this.polite ? [politeHostsArg(hosts)] : [];
  }
}
