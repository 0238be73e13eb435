import { numberOption } from '../options/option-ranges.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { PolitenessMismatchError } from '../errors/politeness-mismatch-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { defaultHostKey, hostKeyChecked, MAX_HOST_KEY_LENGTH } from './host-key.js';
import { retryDelayMs, type PolitenessSettings } from './politeness-options.js';
import { readPolitenessStats, type PolitenessStats } from './politeness-stats.js';

/** First byte of the politeness argument the add/update scripts take last (a request JSON or a flag never starts
 * with it), so a script tells a polite call from an unpolite one without reading anything. */
const POLITE_ARG_MARK = '\u0000';

/** The politeness argument of a script call that names one host per entry (add-requests.lua, and the requeue and
 * takeover scripts through includes/polite-requeue.lua). @param hosts - per entry, its host key ('' for none) */
export function politeHostsArg(hosts: readonly string[]): string {
  return POLITE_ARG_MARK + JSON.stringify(hosts);
}

/** Per request of an update: its host key and the not-before delay of a reclaim in ms. */
export type PoliteUpdateEntry = [host: string, delayMs: number];

/** What a queue's meta says about politeness: `minDelayMs maxConcurrency`, or '' without politeness. */
export function politenessSpec(settings: PolitenessSettings | undefined): string {
  return settings ? `${settings.minDelayMs} ${settings.maxConcurrency}` : '';
}

function describeSpec(spec: string): string {
  if (!spec) return 'no politeness';
  const [ms, conc] = spec.split(' ').map(Number);
  return `politeness { minDelaySecs: ${ms! / 1000}, maxConcurrencyPerHost: ${conc === 0 ? 'unlimited' : conc} }`;
}

/**
 * Checks a queue's stored politeness against this client's: the mode is fixed when the queue is created.
 * @param queueName - for the message
 * @param stored - the spec in the queue's meta ('' when created without politeness)
 * @param mine - this client's spec
 * @throws {@link PolitenessMismatchError} when they differ
 */
export function checkPolitenessSpec(queueName: string, stored: string, mine: string): void {
  if (stored === mine) return;
  throw new PolitenessMismatchError(
    `request queue "${queueName}" was created with ${describeSpec(stored)}, this client is configured with ${describeSpec(mine)}; ` +
      'every worker of a queue must use the settings it was created with (politeness lives in per-host structures in Redis). ' +
      'Use the same politeness options everywhere, or drop the queue (crawlee-redis drop) to change them',
  );
}

/**
 * The politeness side of one queue client: host keys for the add/update scripts, retry not-before delays,
 * `backOffHost` and the stats. The scheduling itself happens in the Lua scripts (`list-and-lock-head-polite.lua`,
 * `includes/polite.lua`).
 */
export class QueuePoliteness {
  /**
   * @param scripts - the queue's scripts
   * @param settings - the client's politeness settings, or undefined without politeness
   */
  constructor(
    private readonly scripts: QueueScripts,
    readonly settings: PolitenessSettings | undefined,
  ) {}

  /** Whether this client is polite. */
  get enabled(): boolean {
    return this.settings !== undefined;
  }

  /**
   * Host key of a URL with this queue's `hostKey` (the default one without politeness).
   * @param url - the URL
   * @throws {@link InvalidRequestError} when the hostKey function fails or returns no usable key
   */
  hostKeyOf(url: string): string {
    return hostKeyChecked(this.settings?.hostKey ?? defaultHostKey, url);
  }

  /**
   * The last argument of add-requests.lua: one host per entry ('' for an entry that is no request), or undefined
   * without politeness. Computed before anything is sent, so a failing hostKey writes nothing.
   * @param urls - per entry, the request URL or undefined
   */
  addArg(urls: ReadonlyArray<string | undefined>): string | undefined {
    if (!this.settings) return undefined;
    return politeHostsArg(urls.map((url) => (url === undefined ? '' : this.hostKeyOf(url))));
  }

  /**
   * One request's entry of update-request.lua's politeness argument: its host and the not-before delay of a
   * reclaim (ms; `retryBackoff` on its retryCount), or undefined without politeness. Computed when the update is
   * made (before it is batched), so a failing hostKey throws there and writes nothing.
   * @param url - the request URL
   * @param retryCount - the request's retryCount
   * @param handled - whether the update marks it handled (no delay)
   */
  updateEntry(url: string, retryCount: unknown, handled: boolean): PoliteUpdateEntry | undefined {
    const settings = this.settings;
    if (!settings) return undefined;
    return [this.hostKeyOf(url), handled ? 0 : retryDelayMs(settings, retryCount)];
  }

  /** The last argument of update-request.lua for a batch, or undefined when no entry is polite.
   * @param entries - per request, its {@link QueuePoliteness.updateEntry} */
  static updateArg(entries: ReadonlyArray<PoliteUpdateEntry | undefined>): string | undefined {
    if (!entries.some((entry) => entry !== undefined)) return undefined;
    return POLITE_ARG_MARK + JSON.stringify(entries.map((entry) => entry ?? ['', 0]));
  }

  /**
   * Pushes a host's next allowed time for the whole fleet to at least now + delaySecs (Redis time).
   * @param host - a host key (`hostKeyOf(url)`)
   * @param delaySecs - seconds, 0 to 604,800
   * @throws {@link InvalidOptionsError} for a delay out of range or an empty host
   * @throws {@link PolitenessMismatchError} on a queue created without politeness
   */
  async backOffHost(host: string, delaySecs: number): Promise<void> {
    const secs = numberOption('backOffHost.delaySecs', delaySecs);
    if (typeof host !== 'string' || host.length === 0 || host.length > MAX_HOST_KEY_LENGTH) {
      throw new InvalidOptionsError(`backOffHost needs a host key such as queue.hostKeyOf(url) (got ${JSON.stringify(host)})`);
    }
    await this.scripts.run('backOffHost', [host, Math.round(secs * 1000), this.scripts.offset()]);
  }

  /** @param top - hosts listed in `inFlight` @returns the queue's politeness state */
  stats(top?: number): Promise<PolitenessStats> {
    return readPolitenessStats(this.scripts, top);
  }
}
