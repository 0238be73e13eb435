import { unknownOptionProblem, type KnownOptions } from '@crawlee-distributed/redis-kit/options';
import { InvalidRequestError } from './errors/invalid-request-error.js';

/** The option names of each function. known-options-match.ts holds each table against its options type (a name
 * added to an options type and not here does not compile); the tables do not import those types themselves, since
 * the functions that own the types import this file. */
export const FINGERPRINT_OPTIONS = { recipe: true, includeHeaders: true, keepFragments: true, scrapyRequest: true } as const;
export const UNIQUE_KEY_OPTIONS = { ...FINGERPRINT_OPTIONS, dontFilter: true } as const;
export const CANONICALIZE_OPTIONS = { keepBlankValues: true, keepFragments: true, encoding: true } as const;
export const SAFE_URL_OPTIONS = { encoding: true, pathEncoding: true, quotePath: true } as const;

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
