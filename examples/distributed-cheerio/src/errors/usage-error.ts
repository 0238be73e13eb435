import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * Bad command-line input (unknown dedup mode, a missing folder, a malformed URL, an output path in use).
 * The CLI prints the message and exits with code 2 before it starts or writes anything.
 */
export class UsageError extends DistributedCheerioError {
  constructor(message: string) {
    super('E_USAGE', message);
  }
}
