import { QueueMetadataCorruptError } from '../errors/queue-metadata-corrupt-error.js';

/**
 * A numeric field read from a queue's metadata hash: the fallback when absent, else its number, or a
 * {@link QueueMetadataCorruptError} naming the key and field (never a NaN in a count, never a silent default that
 * would change what the queue does, such as the shard count).
 *
 * @param context - who reads it, e.g. `request queue "crawl" get`
 * @param key - the metadata hash
 * @param field - the field
 * @param raw - what Redis returned (null or undefined: absent)
 * @param fallback - the value when absent
 * @param integer - true for counts and other whole numbers
 * @throws {@link QueueMetadataCorruptError} for anything but a finite number (a whole one with `integer`)
 */
export function metaNumber(context: string, key: string, field: string, raw: string | null | undefined, fallback: number, integer = true): number {
  if (raw === null || raw === undefined) return fallback;
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new QueueMetadataCorruptError(context, key, field, raw.slice(0, 40));
  return n;
}
