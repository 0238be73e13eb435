import { describe, expect, it } from 'vitest';
import { maskCredentials } from './mask-credentials.js';

describe('maskCredentials', () => {
  it('masks the password of every Redis URL and leaves everything else alone', () => {
    expect(maskCredentials('at redis://user:s3cret@host:6379/0 and rediss://:pw@h2')).toBe('at redis://user:***@host:6379/0 and rediss://:***@h2');
    expect(maskCredentials('redis://onlypassword@host')).toBe('redis://***@host');
    expect(maskCredentials('redis://127.0.0.1:6379 http://a:b@c')).toBe('redis://127.0.0.1:6379 http://a:b@c');
    expect(maskCredentials(maskCredentials('redis://u:p@h'))).toBe('redis://u:***@h');
  });
});
