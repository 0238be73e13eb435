/** CRC16/XMODEM table, as Redis Cluster uses it for key slots (Redis `crc16.c`). */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let j = 0; j < 8; j++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/**
 * The part of a key that Redis Cluster hashes: the text between the first `{` and the next `}` when that is not
 * empty, else the whole key (Redis Cluster specification, "Hash tags").
 *
 * @param key - a Redis key
 * @returns the hashed part
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/**
 * The Cluster slot of a key: CRC16/XMODEM of its hash tag, modulo 16384 (port of Redis `keyHashSlot`).
 *
 * @param key - a Redis key
 * @returns the slot, 0 to 16383
 */
export function clusterSlot(key: string): number {
  const bytes = Buffer.from(hashTagOf(key), 'utf8');
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc & 16383;
}
