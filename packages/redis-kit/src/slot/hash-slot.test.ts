import { describe, expect, it } from 'vitest';
import { hashTagOf, hasHashTag, sameSlotKey, slotOf } from './hash-slot.js';

describe('slot math (cluster-key-slot)', () => {
  it('matches slots Redis documents and computes', () => {
    // 'foo' is the CLUSTER KEYSLOT documentation example; CRC16/XMODEM('123456789') = 0x31C3 is the spec's check value.
    expect(slotOf('foo')).toBe(12182);
    expect(slotOf('123456789')).toBe(12739);
    expect(slotOf('{user1000}.following')).toBe(slotOf('{user1000}.followers'));
    expect(slotOf('{user1000}.following')).toBe(slotOf('user1000'));
    // CLUSTER KEYSLOT on redis-server 7.0 answers 4015 and 13340 for these two.
    expect(slotOf('foo{{bar}}zap')).toBe(4015);
    expect(slotOf('a{b')).toBe(13340);
  });

  it('hashTagOf has one meaning: the part Redis hashes (the first non-empty {...}, else the whole key)', () => {
    expect(hashTagOf('{crawlee:rq:x}:data')).toBe('crawlee:rq:x');
    expect(hashTagOf('foo{}{bar}')).toBe('foo{}{bar}');
    expect(hashTagOf('foo{{bar}}zap')).toBe('{bar');
    expect(hashTagOf('plain')).toBe('plain');
    for (const key of ['{a}:x', 'a{b}c', 'plain', 'x{}', '{q}']) expect(slotOf(key)).toBe(slotOf(hashTagOf(key)));
  });

  it('hasHashTag and sameSlotKey keep siblings on the key\'s slot', () => {
    expect(hasHashTag('{crawl}:bloom')).toBe(true);
    expect(hasHashTag('crawl:bloom')).toBe(false);
    expect(hasHashTag('x{}')).toBe(false);
    expect(sameSlotKey('{crawl}:bloom', 'meta')).toBe('{crawl}:bloom:meta');
    expect(sameSlotKey('crawl:bloom', 'meta')).toBe('{crawl:bloom}:meta');
    for (const key of ['{crawl}:bloom', 'crawl:bloom']) expect(slotOf(sameSlotKey(key, 'meta'))).toBe(slotOf(key));
  });
});
