import { describe, expect, it } from 'vitest';
import { maskRedisUrl } from './mask-redis-url.js';

describe('maskRedisUrl', () => {
  it('never prints a password or a token-like user name', () => {
    expect(maskRedisUrl('redis://:s3cret@127.0.0.1:6379/2')).toBe('redis://:***@127.0.0.1:6379/2');
    expect(maskRedisUrl('rediss://worker:s3cret@h:6380')).toBe('rediss://worker:***@h:6380');
    expect(maskRedisUrl('redis://tok3n@h:6379')).toBe('redis://***@h:6379');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(maskRedisUrl('not a url :s3cret@host')).not.toContain('s3cret');
  });
});
