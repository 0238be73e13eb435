import { log } from 'crawlee';
import { StartUrlUnreachableError } from '../errors/start-url-unreachable-error.js';
import { maskUrl } from '../mask-credentials.js';

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED): nothing listens at that host and port';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name does not resolve (${code})`;
  if ((error as Error).name === 'TimeoutError') return 'no answer within 15 s';
  return `${code ?? (error as Error).name}: ${cause?.message ?? (error as Error).message}`;
}

/**
 * Fetches the start URL once before any worker starts: a site that refuses or does not resolve is one clear error,
 * instead of every worker failing every request with guesses. An HTTP error status is only a warning (the crawl
 * records it).
 *
 * @throws {@link StartUrlUnreachableError} when the request cannot be made at all
 */
export async function checkStartUrl(url: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', redirect: 'follow', signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new StartUrlUnreachableError(maskUrl(url), causeOf(error), { cause: error });
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 400) log.warning(`the start URL ${maskUrl(url)} answers HTTP ${response.status}; crawling it anyway`);
}
