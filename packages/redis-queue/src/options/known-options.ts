import { unknownOptionProblem, type KnownOptions } from '@crawlee-distributed/redis-kit';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

export type { KnownOptions };

/**
 * Rejects option names the object does not take, before anything is connected or written (redis-kit's
 * `unknownOptionProblem`, thrown as this package's error). The one check every options object of the package goes
 * through.
 *
 * @param where - the options object as the user wrote it, e.g. `politeness` or `RedisStorageClient options`
 * @param value - the object given (anything else is left to the caller's type checks)
 * @param known - the names it takes
 * @throws {@link InvalidOptionsError} naming the unknown key, the nearest known one ("did you mean ...?") and all of them
 */
export function checkKnownOptions<T>(where: string, value: unknown, known: KnownOptions<T>): void {
  const problem = unknownOptionProblem(where, value, known);
  if (problem !== undefined) throw new InvalidOptionsError(problem);
}
