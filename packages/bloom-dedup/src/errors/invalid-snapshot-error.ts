import { DedupError } from './dedup-error.js';

/** A saved in-memory filter could not be read back (foreign format, truncated, or other parameters). */
export class InvalidSnapshotError extends DedupError {
  constructor(where: string, detail: string, options?: { cause?: unknown }) {
    super(
      'INVALID_SNAPSHOT',
      `Cannot restore the Bloom filter from ${where}: ${detail}. Delete the snapshot to start an empty filter, ` +
        `or restore it with the capacity and errorRate it was saved with.`,
      options,
    );
  }
}
