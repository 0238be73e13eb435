import { unknownOptionProblem, type KnownOptions } from '@crawlee-distributed/redis-kit/options';
import type { ScrapyUniqueKeyOptions } from './crawlee/options.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import type { FingerprintOptions } from './scrapy/fingerprint.js';
import type { CanonicalizeUrlOptions } from './w3lib/canonicalize-url.js';
import type { SafeUrlStringOptions } from './w3lib/safe-url-string.js';

/** The option names of each function (typed: a name added to an options type must be added here). */
export const FINGERPRINT_OPTIONS: KnownOptions<FingerprintOptions> = { recipe: true, includeHeaders: true, keepFragments: true, scrapyRequest: true };
export const UNIQUE_KEY_OPTIONS: KnownOptions<ScrapyUniqueKeyOptions> = { ...FINGERPRINT_OPTIONS, dontFilter: true };
export const CANONICALIZE_OPTIONS: KnownOptions<CanonicalizeUrlOptions> = { keepBlankValues: true, keepFragments: true, encoding: true };
export const SAFE_URL_OPTIONS: KnownOptions<SafeUrlStringOptions> = { encoding: true, pathEncoding: true, quotePath: true };

/**
 * Rejects an option name the function does not take (`includeHeader`, `keepFragment`): dropped silently, the
 * fingerprint would differ from the Scrapy fleet's without a word.
 * @param where - the function, e.g. `fingerprint`
 * @param options - the options given
 * @param known - the names it takes
 * @throws {@link InvalidRequestError} (field `options`) naming the unknown key and the nearest known one
 */
export function checkOptionNames<T>(where: string, options: unknown, known: KnownOptions<T>): void {
  const problem = unknownOptionProblem(`${where} options`, options, known);
  if (problem !== undefined) throw new InvalidRequestError('options', problem.replace(/; nothing was written$/, ''));
}
