import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bitOffsets, bitPosition, digestBytes, digestHex, digestInto, hexPositionInto, isSha1Hex, modBigEndian } from './bit-indexes.js';
import { FingerprintHashing } from '../memory/fingerprint-hashing.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('bit indexes (scheme sha1-km64-v1)', () => {
  it('uses a 40-hex fingerprint\'s own bytes and hashes anything else first', () => {
    const f = sha1('x');
    expect(isSha1Hex(f)).toBe(true);
    expect(digestHex(f)).toBe(f);
    expect(digestHex(f.toUpperCase())).toBe(f);
    expect(digestHex('https://example.com/')).toBe(sha1('https://example.com/'));
    expect(digestHex(f.slice(1))).toBe(sha1(f.slice(1)));
    expect(digestBytes(f).toString('hex')).toBe(f);
    // The allocation-free decoder agrees, and falls back to SHA-1 for 40 chars that are not all hex.
    const out = new Uint8Array(20);
    for (const key of [f, f.toUpperCase(), `${f.slice(0, 39)}g`, `${f.slice(0, 39)}\u0130`, 'short', '']) {
      expect(Buffer.from(digestInto(key, out)).toString('hex')).toBe(digestHex(key));
    }
  });

  it('the in-memory fast path (straight from hex chars) gives the digest path\'s indexes', () => {
    const hashing = new FingerprintHashing();
    const f = sha1('fast');
    const keys = [f, f.toUpperCase(), `${f.slice(0, 39)}z`, `${f.slice(0, 35)}-${f.slice(36)}`, 'https://example.com/', ''];
    for (let i = 0; i < 300; i++) keys.push(sha1(`fast-${i}`));
    for (const m of [64, 1000, 28_755_176, 2 ** 32, 2 ** 35]) {
      for (const key of keys) {
        expect(hashing.getIndexes(key, m, 20)).toEqual(bitOffsets(bitPosition(digestBytes(key), m, 1), m, 20));
      }
    }
    expect(hexPositionInto('short', 100, { block: 0, a: 0, b: 1 })).toBe(false);
  });

  it('64-bit words mod m equal BigInt arithmetic for m up to 2^35 (no 32-bit truncation)', () => {
    const moduli = [2, 3, 1000, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 5, 2 ** 32, 28_755_176, 2 ** 35];
    for (let i = 0; i < 2000; i++) {
      const d = digestBytes(`k${i}`);
      for (const m of moduli) {
        expect(modBigEndian(d, 0, 8, m)).toBe(Number(d.readBigUInt64BE(0) % BigInt(m)));
        expect(modBigEndian(d, 8, 8, m)).toBe(Number(d.readBigUInt64BE(8) % BigInt(m)));
        expect(modBigEndian(d, 16, 4, m)).toBe(d.readUInt32BE(16) % m);
      }
    }
  });

  it('offsets are (a + i b) mod m, also above 2^31 and near 2^32', () => {
    const m = 2 ** 32;
    let sawHigh = 0;
    for (let i = 0; i < 500; i++) {
      const d = digestBytes(`o${i}`);
      const pos = bitPosition(d, m, 1);
      const offsets = bitOffsets(pos, m, 20);
      const a = d.readBigUInt64BE(0) % BigInt(m);
      const b = (d.readBigUInt64BE(8) % BigInt(m - 1)) + 1n;
      offsets.forEach((o, j) => {
        expect(o).toBe(Number((a + BigInt(j) * b) % BigInt(m)));
        expect(o).toBeGreaterThanOrEqual(0);
        expect(o).toBeLessThan(m);
        if (o >= 2 ** 31) sawHigh++;
      });
    }
    expect(sawHigh).toBeGreaterThan(4000);
  });

  it('B13: each of the k hash functions spreads 20,000 fingerprints over >= 19,500 offsets at m = 2^20', () => {
    const m = 2 ** 20;
    const k = 6;
    const perHash = Array.from({ length: k }, () => new Set<number>());
    for (let i = 0; i < 20_000; i++) {
      bitOffsets(bitPosition(digestBytes(sha1(`random-${i}`)), m, 1), m, k).forEach((o, j) => perHash[j]!.add(o));
    }
    for (const set of perHash) expect(set.size).toBeGreaterThanOrEqual(19_500);
  });

  it('B13: measured false-positive rate at m = 2^20, k = 6, n = 100,000 is at most 1.2x theory', () => {
    const m = 2 ** 20;
    const k = 6;
    const bits = new Uint8Array(m / 8);
    const offsetsOf = (key: string) => bitOffsets(bitPosition(digestBytes(sha1(key)), m, 1), m, k);
    for (let i = 0; i < 100_000; i++) for (const o of offsetsOf(`http://example.com/item/${i}`)) bits[Math.floor(o / 8)]! |= 2 ** (o % 8);
    let fp = 0;
    for (let j = 0; j < 100_000; j++) if (offsetsOf(`http://example.com/other/${j}`).every((o) => (bits[Math.floor(o / 8)]! & (2 ** (o % 8))) !== 0)) fp++;
    const theory = (1 - Math.exp((-k * 100_000) / m)) ** k;
    expect(fp / 100_000).toBeLessThanOrEqual(theory * 1.2);
  });
});
