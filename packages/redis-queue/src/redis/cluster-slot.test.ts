import { describe, expect, it } from 'vitest';
import { clusterSlot, hashTagOf } from './cluster-slot.js';

describe('clusterSlot (Redis Cluster key slots)', () => {
  it('matches slots Redis documents and computes', () => {
    // 'foo' is the CLUSTER KEYSLOT documentation example; CRC16/XMODEM('123456789') = 0x31C3 is the spec's check value.
    expect(clusterSlot('foo')).toBe(12182);
    expect(clusterSlot('123456789')).toBe(12739);
    expect(clusterSlot('{user1000}.following')).toBe(clusterSlot('{user1000}.followers'));
    expect(clusterSlot('{user1000}.following')).toBe(clusterSlot('user1000'));
  });

  it('uses the first non-empty {...} as the hash tag', () => {
    expect(hashTagOf('{crawlee:rq:x}:data')).toBe('crawlee:rq:x');
    expect(hashTagOf('foo{}{bar}')).toBe('foo{}{bar}');
    expect(hashTagOf('foo{{bar}}zap')).toBe('{bar');
    expect(hashTagOf('plain')).toBe('plain');
  });
});
