import calculateSlot from 'cluster-key-slot';

/**
 * The part of a key that Redis Cluster hashes: the text between the first `{` and the next `}` when that text is
 * not empty, else the whole key (Redis Cluster specification, "Hash tags"). Two keys with the same `hashTagOf` are
 * always on the same slot.
 *
 * @param key - a Redis key
 * @returns the hashed part (the whole key when it has no usable hash tag)
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/**
 * True when the key has a usable hash tag (a non-empty `{...}`), i.e. only that part decides its slot.
 *
 * @param key - a Redis key
 */
export function hasHashTag(key: string): boolean {
  // A tag never equals its key: the key also holds the braces.
  return hashTagOf(key) !== key;
}

/**
 * The Redis Cluster slot of a key, 0 to 16383: CRC16/XMODEM of its hash tag modulo 16384, computed by
 * `cluster-key-slot`, the package ioredis routes Cluster commands with (so our slot checks agree with ioredis).
 *
 * @param key - a Redis key
 * @returns the slot
 */
export function slotOf(key: string): number {
  return calculateSlot(key);
}

/**
 * A sibling key on the same Cluster slot as `key`: `key:suffix` when `key` has a hash tag, else `{key}:suffix` (the
 * whole key becomes the tag, which hashes like the key itself).
 *
 * @param key - a Redis key
 * @param suffix - what to append, e.g. `'meta'`
 */
export function sameSlotKey(key: string, suffix: string): string {
  return hasHashTag(key) ? `${key}:${suffix}` : `{${key}}:${suffix}`;
}
