import { DedupError } from './dedup-error.js';

/** Redis answered a dedup script with an error this package does not know (a bug or a foreign key type). */
export class RedisScriptError extends DedupError {
  constructor(script: string, reply: string, options?: { cause?: unknown }) {
    super(
      'REDIS_SCRIPT_ERROR',
      `Redis script ${script} failed: ${reply}. Check that the dedup keys are not used by something else ` +
        `(WRONGTYPE means another data type lives at that key).`,
      options,
    );
  }
}
