import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { log } from 'crawlee';
import { StartUrlUnreachableError } from '../errors/start-url-unreachable-error.js';
import { maskUrl } from '../mask-credentials.js';

/** Seconds the start URL may take to answer the check. */
const CHECK_TIMEOUT_SECS = 15;

function causeOf(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED): nothing listens at that host and port';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${error.code})`;
    case 'ETIMEDOUT':
      return `no answer within ${CHECK_TIMEOUT_SECS} s (ETIMEDOUT)`;
    default:
      return `${error.code ?? error.name}: ${error.message}`;
  }
}

/**
 * Requests the start URL once (node:http, as Crawlee's HTTP client does: no port block list) before any worker
 * starts: a site that refuses or does not resolve is one clear error, instead of every worker failing every request.
 * An HTTP error status is only a warning (the crawl records it).
 *
 * @param url - the start URL
 * @throws {@link StartUrlUnreachableError} when no HTTP answer comes back
 */
export async function checkStartUrl(url: string): Promise<void> {
  const status = await new Promise<number>((resolve, reject) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.setTimeout(CHECK_TIMEOUT_SECS * 1000, () => {
      request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
    });
    request.once('error', reject);
    request.end();
  }).catch((error: NodeJS.ErrnoException) => {
    throw new StartUrlUnreachableError(maskUrl(url), causeOf(error), { cause: error });
  });
  if (status >= 400) log.warning(`the start URL ${maskUrl(url)} answers HTTP ${status}; crawling it anyway`);
}
