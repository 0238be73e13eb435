import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { queueIndexKey } from '../../src/core/keys.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { req } from '../helpers/world.js';
import { runCliIn } from './cli-io.js';

// Keys of another type written by another program (redis-cli SET on a queue's meta): every command names the key
// and says what to do; `drop` removes such a queue; a missing queue is an error for `drop` as for `stats`.

const url = inject('redisUrl');
const keyPrefix = `wrongtype-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const redis = new Redis(url);
const cli = (args: string[], input?: string) => runCliIn([...args, '--redis', url, '--key-prefix', keyPrefix], input);
const meta = (queue: string) => `{${keyPrefix}:rq:${queue}}:meta`;

afterAll(async () => {
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('a queue key of another type', () => {
  it('stats, watch, dead-letters, workers and seed name the key and the way out (exit 1, nothing written)', async () => {
    await redis.set(meta('x'), 'hello');
    const file = join(mkdtempSync(join(tmpdir(), 'wrongtype-')), 'urls.txt');
    writeFileSync(file, 'http://a.example/1\n');
    for (const args of [['stats', 'x'], ['watch', 'x', '--frames', '1'], ['dead-letters', 'x'], ['workers', 'x'], ['seed', 'x', file]]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toContain(`queue "x": key ${meta('x')} holds another Redis type`);
      expect(run.stderr).toContain(`redis-cli TYPE '${meta('x')}'`);
      expect(run.stderr).toContain(`crawlee-redis drop x --key-prefix ${keyPrefix} --yes`);
      expect(run.stderr).not.toMatch(/^crawlee-redis: WRONGTYPE/);
    }
    expect((await redis.keys(`*${keyPrefix}:rq:x*`)).sort()).toEqual([meta('x')]);
    expect(await redis.get(meta('x'))).toBe('hello');
  });

  it('another key of the queue (inside a script or a plain read) names the queue too', async () => {
    const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false });
    await storage.requestQueues().getOrCreate('v');
    await storage.requestQueue('v').batchAddRequests([req(1)]);
    await storage.close();
    await redis.set(`{${keyPrefix}:rq:v}:dead`, 'x');
    for (const args of [['stats', 'v'], ['dead-letters', 'v']]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toMatch(/^crawlee-redis: queue "v": (key \S+|one of its keys) holds another Redis type/);
      expect(run.stderr).toContain(`crawlee-redis drop v --key-prefix ${keyPrefix} --yes`);
    }
  });

  it('drop --yes removes every key of the broken queue', async () => {
    await redis.set(meta('y'), 'hello');
    await redis.set(`{${keyPrefix}:rq:y}:dead`, 'x');
    await redis.sadd(queueIndexKey(keyPrefix), 'y');
    const run = await cli(['drop', 'y', '--yes']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/dropped queue "y" .*2 key\(s\)/);
    expect(await redis.keys(`*${keyPrefix}:rq:y*`)).toEqual([]);
    expect(await redis.sismember(queueIndexKey(keyPrefix), 'y')).toBe(0);
  });

  it('ls lists the readable queues and says on stderr which one it skipped', async () => {
    const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false });
    await storage.requestQueues().getOrCreate('good');
    await storage.requestQueue('good').batchAddRequests([req(1)]);
    await storage.close();
    await redis.set(meta('z'), 'hello');
    await redis.sadd(queueIndexKey(keyPrefix), 'z');
    const run = await cli(['ls']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^good\s+1/m);
    expect(run.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'skipped v: one of its keys holds another Redis type',
      'skipped z: its meta is not a hash',
    ]);
  });

  it('export names the dataset key of another type', async () => {
    await redis.hset(`{${keyPrefix}:ds:w}:meta`, 'id', 'w', 'createdAt', String(Date.now()));
    await redis.set(`{${keyPrefix}:ds:w}:items`, 'x');
    const run = await cli(['export', 'w']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`dataset "w": key {${keyPrefix}:ds:w}:items holds another Redis type`);
    expect(run.stderr).toContain(`redis-cli TYPE '{${keyPrefix}:ds:w}:items'`);
  });
});

describe('a queue meta with a counter that is not a number', () => {
  it('ls lists the readable queues and says on stderr which one it skipped, and why', async () => {
    const prefix = `${keyPrefix}-corrupt`;
    const storage = new RedisStorageClient({ redis: url, keyPrefix: prefix, workerStats: false });
    await storage.requestQueues().getOrCreate('good');
    await storage.requestQueue('good').batchAddRequests([req(1)]);
    await storage.close();
    await redis.hset(`{${prefix}:rq:bad}:meta`, 'id', 'bad', 'name', 'bad', 'total', 'notanumber');
    await redis.sadd(queueIndexKey(prefix), 'bad');
    const run = await runCliIn(['ls', '--redis', url, '--key-prefix', prefix]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^good\s+1/m);
    expect(run.stderr).toMatch(/^skipped bad: .*total/m);
  });
});

describe('drop of a queue that does not exist', () => {
  it('exits 1 with "does not exist", as stats does', async () => {
    const run = await cli(['drop', 'nope-does-not-exist', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('queue "nope-does-not-exist" does not exist');
  });
});
