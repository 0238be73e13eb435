/** Every option name of an options type, each `true`: a name missing here (or one the type does not have) does not
 * compile, so the list cannot drift from the type. */
export type KnownOptions<T> = { readonly [K in keyof Required<T>]: true };

/**
 * What is wrong with an options object's names, or undefined when every key is one it takes. A typo
 * (`politeness: { minDelay: 1 }`) would otherwise be dropped silently and run without the setting. Each package
 * throws it as its own options error (crawlee-redis-queue's InvalidOptionsError, crawlee-bloom-dedup's
 * InvalidDedupOptionsError, crawlee-scrapy-fingerprint's FingerprintOptionsError).
 *
 * @param where - the options object as the user wrote it, e.g. `politeness` or `RedisStorageClient options`
 * @param value - the object given (anything that is not a plain object is left to the caller's type checks)
 * @param known - the names it takes
 * @returns the message, naming the unknown key, the nearest known one ("did you mean ...?") and all of them
 */
export function unknownOptionProblem<T>(where: string, value: unknown, known: KnownOptions<T>): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const names = Object.keys(known);
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const near = nearestName(key, names);
    return `${where} has no option ${JSON.stringify(key)}${near === undefined ? '' : `; did you mean ${near}?`} (${where} takes ${names.join(', ')}); nothing was written`;
  }
  return undefined;
}

/**
 * The known name closest to a typo: one that starts with it or it starts with (`minDelay` → `minDelaySecs`), else
 * the smallest edit distance within a third of the name's length (at least 2), case-insensitive.
 *
 * @param typo - the unknown name
 * @param names - the known names
 * @returns the nearest name, or undefined when none is close
 */
export function nearestName(typo: string, names: readonly string[]): string | undefined {
  const t = typo.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const n = name.toLowerCase();
    const prefix = t.length >= 3 && (n.startsWith(t) || t.startsWith(n));
    const distance = editDistance(t, n);
    const score = prefix ? Math.min(distance, 1) : distance;
    if (!prefix && distance > Math.max(2, Math.floor(typo.length / 3))) continue;
    if (best === undefined || score < best.score) best = { name, score };
  }
  return best?.name;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
