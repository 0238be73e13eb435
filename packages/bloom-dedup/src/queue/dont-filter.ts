import type { Request } from 'crawlee';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';

/** Scrapy's `dont_filter` as a `withDedup` option: `true` for every request, or a function that decides per request. */
export type DontFilterOption = boolean | ((request: Request) => boolean);

/**
 * The predicate `withDedup` asks per request. The default is the convention crawlee-scrapy-fingerprint uses,
 * `request.userData.dontFilter === true` (scrapy-redis: `Request(dont_filter=True)` is enqueued without asking the
 * dupefilter, and the dupefilter records nothing for it).
 * @throws {@link InvalidDedupOptionsError} when the option is neither a boolean nor a function
 */
export function dontFilterPredicate(option: DontFilterOption | undefined): (request: Request) => boolean {
  if (option === undefined) return (request) => (request.userData as { dontFilter?: unknown } | undefined)?.dontFilter === true;
  if (typeof option === 'boolean') return () => option;
  if (typeof option === 'function') return (request) => option(request) === true;
  throw new InvalidDedupOptionsError(`dontFilter must be a boolean or a function (request) => boolean, got ${typeof option}`);
}
