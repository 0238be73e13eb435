import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** The start URL does not answer (checked once before any worker starts, so no worker marks every page failed). */
export class StartUrlUnreachableError extends DistributedCheerioError {
  /**
   * @param url - the start URL, credentials masked
   * @param why - the cause, e.g. `connection refused (ECONNREFUSED)`
   */
  constructor(url: string, why: string, options?: ErrorOptions) {
    super(
      'E_START_URL_UNREACHABLE',
      `the start URL ${url} cannot be fetched: ${why}. Check that the site is up and reachable from this machine ` +
        '(host, port, firewall, proxy); nothing was started.',
      options,
    );
  }
}
