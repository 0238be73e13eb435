import { describe, expect, it } from 'vitest';
import { HostThrottledError, MAX_THROTTLED_RETRIES } from '../src/errors/host-throttled-error.js';
import { HostBackoff, type HostBackoffQueue } from '../src/worker/host-backoff.js';
import { MAX_RETRY_AFTER_SECS, parseRetryAfter } from '../src/worker/retry-after.js';

describe('parseRetryAfter (RFC 9110 10.2.3)', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it.each([
    ['2', 2],
    [' 120 ', 120],
    ['0', 0],
    ['Tue, 01 Dec 2026 12:00:30 GMT', 30],
    ['Tue, 01 Dec 2026 11:00:00 GMT', 0], // a date in the past: go now
    ['999999999', MAX_RETRY_AFTER_SECS],
  ])('%j -> %d s', (value, secs) => {
    expect(parseRetryAfter(value, now)).toBe(secs);
  });

  it.each([undefined, '', '-1', '2.5', 'soon', 'Tue, 99 Foo 2026'])('%j is neither form: undefined', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('a repeated header: the first value counts', () => {
    expect(parseRetryAfter(['3', '60'], now)).toBe(3);
  });
});

/** The two queue methods HostBackoff calls, recording what it asked for (the queue side is tested in redis-queue). */
function recordingQueue(): HostBackoffQueue & { calls: Array<[string, number]> } {
  const calls: Array<[string, number]> = [];
  return {
    calls,
    hostKeyOf: (url) => new URL(url).host,
    backOffHost: (host, secs) => {
      calls.push([host, secs]);
      return Promise.resolve();
    },
  };
}

describe('HostBackoff', () => {
  it('429 or 503 with Retry-After backs the host off by that much and retries the request', async () => {
    const queue = recordingQueue();
    const backoff = new HostBackoff(queue);
    await expect(backoff.checkResponse('http://a.test/x', 429, '2', 0)).rejects.toBeInstanceOf(HostThrottledError);
    await expect(backoff.checkResponse('http://b.test:8080/y', 503, '7', 0)).rejects.toMatchObject({ host: 'b.test:8080', status: 503, waitSecs: 7 });
    expect(queue.calls).toEqual([
      ['a.test', 2],
      ['b.test:8080', 7],
    ]);
  });

  it('other statuses pass untouched', async () => {
    const queue = recordingQueue();
    const backoff = new HostBackoff(queue);
    for (const status of [200, 404, 500, undefined]) await backoff.checkResponse('http://a.test/', status, '5', 0);
    expect(queue.calls).toEqual([]);
  });

  it('a run of errors backs off exponentially (2, 4, 8 s ...), a success ends the run', async () => {
    const queue = recordingQueue();
    const backoff = new HostBackoff(queue);
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++) await backoff.noteError('http://a.test/p');
    };
    await fail(2);
    expect(queue.calls).toEqual([]);
    await fail(1);
    await fail(3);
    await fail(3);
    expect(queue.calls).toEqual([
      ['a.test', 2],
      ['a.test', 4],
      ['a.test', 8],
    ]);
    await backoff.noteError('http://other.test/'); // another host's run is its own
    backoff.noteSuccess('http://a.test/q');
    await fail(3);
    expect(queue.calls.slice(3)).toEqual([['a.test', 2]]);
  });

  it('a 429 without Retry-After counts as an error of the run', async () => {
    const queue = recordingQueue();
    const backoff = new HostBackoff(queue, undefined, { errors: 2, baseSecs: 3, maxSecs: 10 });
    await expect(backoff.checkResponse('http://a.test/', 429, undefined, 0)).rejects.toMatchObject({ waitSecs: 0 });
    await expect(backoff.checkResponse('http://a.test/', 429, 'later', 0)).rejects.toMatchObject({ waitSecs: 3 });
    expect(queue.calls).toEqual([['a.test', 3]]);
  });

  it('after MAX_THROTTLED_RETRIES a throttled request fails as an ordinary error (no endless loop)', async () => {
    const backoff = new HostBackoff(recordingQueue());
    const last = backoff.checkResponse('http://a.test/', 429, '1', MAX_THROTTLED_RETRIES);
    await expect(last).rejects.toThrow(/answered 429 on 10 tries/);
    await expect(last).rejects.not.toBeInstanceOf(HostThrottledError);
  });

  it('a back-off that cannot reach Redis is logged; the request still goes back', async () => {
    const queue = { hostKeyOf: (url: string) => new URL(url).host, backOffHost: () => Promise.reject(new Error('Connection is closed.')) };
    const backoff = new HostBackoff(queue);
    await expect(backoff.checkResponse('http://a.test/', 429, '2', 0)).rejects.toBeInstanceOf(HostThrottledError);
  });
});
