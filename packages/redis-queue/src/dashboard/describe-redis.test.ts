import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { describeRedis } from './describe-redis.js';

describe('describeRedis', () => {
  it('masks the password of a URL, or a lone user part (which Redis takes as the password)', () => {
    expect(describeRedis('redis://ops:s3cret@cache.internal:6380/2')).toBe('redis://ops:***@cache.internal:6380/2');
    expect(describeRedis('rediss://s3cret@cache.internal:6380')).toBe('rediss://***@cache.internal:6380');
    expect(describeRedis('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(describeRedis('not a url s3cret')).not.toContain('s3cret');
  });

  it('masks the password of a connection passed in', () => {
    const redis = new Redis({ host: '10.0.0.5', port: 7000, password: 's3cret', username: 'ops', lazyConnect: true });
    expect(describeRedis(redis)).toBe('redis://ops:***@10.0.0.5:7000/0');
    redis.disconnect();
  });

  it('masks a Cluster startup node given as a URL with credentials', () => {
    const cluster = new Cluster(['redis://:s3cret@10.0.0.6:7001', 'redis://10.0.0.7:7002'], { lazyConnect: true });
    expect(describeRedis(cluster)).toBe('redis cluster redis://:***@10.0.0.6:7001 (+1 nodes)');
    cluster.disconnect();
  });
});
