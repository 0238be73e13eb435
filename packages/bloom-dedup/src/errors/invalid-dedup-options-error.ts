import { DedupError } from './dedup-error.js';

/** Bad input (capacity, error rate, key, blocks, snapshot target...), rejected before anything is written. */
export class InvalidDedupOptionsError extends DedupError {
  constructor(detail: string) {
    super('INVALID_OPTIONS', `Invalid dedup store option: ${detail}. Fix the option and construct the store again.`);
  }
}
