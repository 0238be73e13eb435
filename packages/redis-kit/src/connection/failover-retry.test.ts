import { describe, expect, it } from 'vitest';
import { RedisFailoverTimeoutError } from '../errors/redis-failover-timeout-error.js';
import { isFailoverError, retryThroughFailover } from './failover-retry.js';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isFailoverError', () => {
  it('knows the replies and client errors of a failover, and nothing else', () => {
    for (const message of ['CLUSTERDOWN The cluster is down', 'TRYAGAIN Multiple keys request during rehashing of slot', "READONLY You can't write against a read only replica.", 'LOADING Redis is loading the dataset in memory', 'Connection is closed.', 'Command aborted due to connection close', 'MOVED 4332 127.0.0.1:7001', 'Too many Cluster redirections. Last error: Error: Connection is closed.']) {
      expect(isFailoverError(new Error(message)), message).toBe(true);
    }
    expect(isFailoverError(coded('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    for (const message of ['NOPERM this user has no permissions', 'ERR Error running script', 'OOM command not allowed', "CROSSSLOT Keys in request don't hash to the same slot", 'RQ_NOT_FOUND x']) {
      expect(isFailoverError(new Error(message)), message).toBe(false);
    }
    expect(isFailoverError('CLUSTERDOWN')).toBe(false);
  });
});

describe('retryThroughFailover', () => {
  it('retries failover errors until the operation succeeds', async () => {
    let calls = 0;
    const retried: string[] = [];
    const result = await retryThroughFailover(
      () => (++calls < 3 ? Promise.reject(new Error('CLUSTERDOWN The cluster is down')) : Promise.resolve('ok')),
      { timeoutMs: 5000, context: 'test', onRetry: (e) => retried.push(e.message) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(retried).toHaveLength(2);
  });

  it('never retries another error, nor anything with timeoutMs 0', async () => {
    let calls = 0;
    await expect(retryThroughFailover(() => (calls++, Promise.reject(new Error('ERR bad'))), { timeoutMs: 5000, context: 't' })).rejects.toThrow('ERR bad');
    await expect(retryThroughFailover(() => (calls++, Promise.reject(new Error('TRYAGAIN'))), { timeoutMs: 0, context: 't' })).rejects.toThrow('TRYAGAIN');
    await expect(retryThroughFailover(() => (calls++, Promise.reject(new Error('Connection is closed.'))), { timeoutMs: 5000, context: 't', retryable: () => false })).rejects.toThrow('Connection is closed.');
    expect(calls).toBe(3);
  });

  it('gives up with RedisFailoverTimeoutError after the bound, also when an attempt hangs', async () => {
    let calls = 0;
    const started = Date.now();
    const error = await retryThroughFailover(
      () => (++calls === 1 ? Promise.reject(new Error('CLUSTERDOWN down')) : new Promise<never>(() => undefined)),
      { timeoutMs: 300, context: 'queue "q"' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisFailoverTimeoutError);
    expect(error).toMatchObject({ code: 'REDIS_FAILOVER_TIMEOUT', timeoutSecs: 0.3 });
    expect((error as Error).message).toMatch(/^queue "q": Redis did not serve the operation within failoverTimeoutSecs = 0.3 s \(last error: CLUSTERDOWN down\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
