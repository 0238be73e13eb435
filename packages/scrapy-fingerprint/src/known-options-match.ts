import type { KnownOptions } from '@crawlee-distributed/redis-kit/options';
import type { ScrapyUniqueKeyOptions } from './crawlee/options.js';
import type { CANONICALIZE_OPTIONS, FINGERPRINT_OPTIONS, SAFE_URL_OPTIONS, UNIQUE_KEY_OPTIONS } from './known-options.js';
import type { FingerprintOptions } from './scrapy/fingerprint.js';
import type { CanonicalizeUrlOptions } from './w3lib/canonicalize-url.js';
import type { SafeUrlStringOptions } from './w3lib/safe-url-string.js';

// Compile-time only: each option-name table in known-options.ts has exactly its options type's names. A name added
// to a type and not to its table (or the other way round) fails `tsc` here. Nothing imports this file, so the
// tables need not import the types of the functions that use them (that import ran in a circle).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

export type FingerprintNamesMatch = Holds<Same<keyof typeof FINGERPRINT_OPTIONS, keyof KnownOptions<FingerprintOptions>>>;
export type UniqueKeyNamesMatch = Holds<Same<keyof typeof UNIQUE_KEY_OPTIONS, keyof KnownOptions<ScrapyUniqueKeyOptions>>>;
export type CanonicalizeNamesMatch = Holds<Same<keyof typeof CANONICALIZE_OPTIONS, keyof KnownOptions<CanonicalizeUrlOptions>>>;
export type SafeUrlNamesMatch = Holds<Same<keyof typeof SAFE_URL_OPTIONS, keyof KnownOptions<SafeUrlStringOptions>>>;
