import { createHash } from 'node:crypto';

/**
 * Name of the index scheme, stored next to every persisted filter:
 * digest = the key's own 20 bytes when it is a 40-hex SHA-1 fingerprint, else SHA-1 of its UTF-8 bytes;
 * a = uint64be(digest[0..8]) mod blockBits; b = uint64be(digest[8..16]) mod (blockBits - 1) + 1;
 * block = uint32be(digest[16..20]) mod blocks; bit i = (a + i b) mod blockBits for i in [0, k)
 * (Kirsch–Mitzenmacher double hashing). `src/lua/bloom_add.lua` computes the same numbers.
 */
export const INDEX_SCHEME = 'sha1-km64-v1';

const HEX40 = /^[0-9a-fA-F]{40}$/;

/** True for a 40-hex string (a SHA-1 fingerprint such as Scrapy's), whose bytes are used as the digest. */
export function isSha1Hex(key: string): boolean {
  return key.length === 40 && HEX40.test(key);
}

/** The key's 40-hex lowercase digest: itself when it is already a SHA-1 hex, else SHA-1 of its UTF-8 bytes. */
export function digestHex(key: string): string {
  return isSha1Hex(key) ? key.toLowerCase() : createHash('sha1').update(key, 'utf8').digest('hex');
}

/** The key's 20-byte digest (see {@link digestHex}). */
export function digestBytes(key: string): Buffer {
  return isSha1Hex(key) ? Buffer.from(key, 'hex') : createHash('sha1').update(key, 'utf8').digest();
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX_VALUE[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX_VALUE[65 + c] = 10 + c;
  HEX_VALUE[97 + c] = 10 + c;
}

/**
 * Writes the key's 20-byte digest into `out` (no allocation for a 40-hex key: the hot path of the in-memory store).
 * @returns `out`
 */
export function digestInto(key: string, out: Uint8Array): Uint8Array {
  if (key.length === 40) {
    let i = 0;
    for (; i < 20; i++) {
      const hi = key.charCodeAt(2 * i);
      const lo = key.charCodeAt(2 * i + 1);
      const h = hi < 128 ? (HEX_VALUE[hi] as number) : -1;
      const l = lo < 128 ? (HEX_VALUE[lo] as number) : -1;
      if (h < 0 || l < 0) break;
      out[i] = h * 16 + l;
    }
    if (i === 20) return out;
  }
  out.set(createHash('sha1').update(key, 'utf8').digest());
  return out;
}

/**
 * (bytes[start .. start+len) as a big-endian unsigned integer) mod m, for m \<= 2^35.
 * Horner's rule over 16-bit chunks keeps every intermediate below 2^51, so doubles stay exact:
 * no BigInt on the hot path and no 32-bit bitwise operators.
 */
export function modBigEndian(bytes: Uint8Array, start: number, len: number, m: number): number {
  let r = 0;
  for (let i = start; i < start + len; i += 2) {
    r = (r * 65536 + (bytes[i] as number) * 256 + (bytes[i + 1] as number)) % m;
  }
  return r;
}

/** Value of the 4 hex chars at key[i .. i+4), or -1 when one of them is not a hex digit. */
function hex4(key: string, i: number): number {
  let v = 0;
  for (let j = i; j < i + 4; j++) {
    const c = key.charCodeAt(j);
    const d = c < 128 ? (HEX_VALUE[c] as number) : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/**
 * {@link bitPosition} of a one-block filter straight from a 40-hex key's characters (no digest bytes, no allocation).
 * @param out - receives block 0 and the two words
 * @returns false when the key is not 40 hex digits (then use the digest path)
 */
export function hexPositionInto(key: string, blockBits: number, out: BitPosition): boolean {
  if (key.length !== 40) return false;
  let a = 0;
  let b = 0;
  for (let i = 0; i < 16; i += 4) {
    const v = hex4(key, i);
    if (v < 0) return false;
    a = (a * 65536 + v) % blockBits;
  }
  for (let i = 16; i < 32; i += 4) {
    const v = hex4(key, i);
    if (v < 0) return false;
    b = (b * 65536 + v) % (blockBits - 1);
  }
  if (hex4(key, 32) < 0 || hex4(key, 36) < 0) return false;
  out.block = 0;
  out.a = a;
  out.b = b + 1;
  return true;
}

/** Where a key's bits live: its block and the two double-hashing words. */
export interface BitPosition {
  block: number;
  a: number;
  b: number;
}

/** Block and double-hashing words of a 20-byte digest (scheme {@link INDEX_SCHEME}). */
export function bitPosition(digest: Uint8Array, blockBits: number, blocks: number): BitPosition {
  return {
    block: blocks === 1 ? 0 : modBigEndian(digest, 16, 4, blocks),
    a: modBigEndian(digest, 0, 8, blockBits),
    b: modBigEndian(digest, 8, 8, blockBits - 1) + 1,
  };
}

/**
 * Writes the k bit offsets (inside the key's block) into `out` and returns it.
 * a + b \< 2 m \<= 2^36, so plain additions with one conditional subtraction stay exact.
 */
export function bitOffsets(position: BitPosition, blockBits: number, hashes: number, out: number[] = new Array<number>(hashes)): number[] {
  let x = position.a;
  for (let i = 0; i < hashes; i++) {
    out[i] = x;
    x += position.b;
    if (x >= blockBits) x -= blockBits;
  }
  out.length = hashes;
  return out;
}
