import { InvalidDedupOptionsError } from '../../errors/invalid-dedup-options-error.js';
import { partOf, type SplitLayout } from './split-layout.js';

/**
 * Runs a per-key store call on a split store: the keys grouped by part (the part each key's shard is), one call per
 * part, all parts at once, the answers put back in the keys' order.
 * @param layout - the split
 * @param keys - dedup keys
 * @param run - the call on one part's keys
 * @returns one answer per key, in order
 * @throws {@link InvalidDedupOptionsError} for a key that is not a string
 */
export async function routeByPart<T>(layout: SplitLayout, keys: readonly string[], run: (part: number, keys: string[]) => Promise<T[]>): Promise<T[]> {
  const groups = new Map<number, number[]>();
  keys.forEach((key, i) => {
    if (typeof key !== 'string') throw new InvalidDedupOptionsError(`dedup keys must be strings, got ${typeof key}`);
    const part = partOf(layout, key);
    const group = groups.get(part);
    if (group) group.push(i);
    else groups.set(part, [i]);
  });
  const out = new Array<T>(keys.length);
  await Promise.all(
    [...groups].map(async ([part, indexes]) => {
      const answers = await run(part, indexes.map((i) => keys[i]!));
      indexes.forEach((i, j) => (out[i] = answers[j]!));
    }),
  );
  return out;
}
