/** The part of a key Redis Cluster hashes: the first non-empty `{...}` section, else the whole key. */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  if (close <= open + 1) return undefined;
  return key.slice(open + 1, close);
}

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let j = 0; j < 8; j++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** Redis Cluster slot of a key: CRC16-XMODEM of its hash tag (or whole key), mod 16384 (Redis cluster spec). */
export function hashSlot(key: string): number {
  const bytes = Buffer.from(hashTagOf(key) ?? key, 'utf8');
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc % 16384;
}

/**
 * A sibling key in the same Cluster slot as `key`: `key:suffix` when `key` has a hash tag, else `{key}:suffix`
 * (the whole key becomes the tag, which hashes like the key itself).
 */
export function sameSlotKey(key: string, suffix: string): string {
  return hashTagOf(key) !== undefined ? `${key}:${suffix}` : `{${key}}:${suffix}`;
}
