import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { req } from '../helpers/world.js';

// Every positional argument and option value of every command: empty or whitespace-only is a usage error (exit 2)
// and nothing is written, whatever the command would have done with it.

const url = inject('redisUrl');
const keyPrefix = `blank-${Date.now()}`;
const redis = new Redis(url);

async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of (await redis.keys(`*${keyPrefix}*`)).sort()) out[key] = JSON.stringify(await redis.dump(key));
  return out;
}

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, done) => (write(String(chunk)), done()) });
  const stdin = new PassThrough();
  stdin.end('http://a.example/seeded\n');
  const code = await runCli(['node', 'crawlee-redis', ...args, '--redis', url, '--key-prefix', keyPrefix], { stdout: sink(() => undefined), stderr: sink((s) => (stderr += s)), stdin });
  return { code, stderr };
}

beforeAll(async () => {
  const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false });
  await storage.requestQueues().getOrCreate('q');
  await storage.requestQueue('q').batchAddRequests([req(1), req(2)]);
  await storage.close();
});
afterAll(async () => {
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('blank CLI arguments', () => {
  const lines: string[][] = [];
  for (const blank of ['', '   ']) {
    lines.push(
      ['stats', blank],
      ['workers', blank],
      ['watch', blank, '--frames', '1'],
      ['seed', blank],
      ['takeover', blank, '--from', 's:requests'],
      ['takeover', 'q', '--from', blank],
      ['forget', 'q', blank],
      ['forget', 'q', 'http://a.example/1', blank],
      ['forget', blank, 'http://a.example/1'],
      ['forget', 'q', 'http://a.example/1', '--dedup-key', blank],
      ['dead-letters', blank],
      ['dead-letters', 'q', '--delete', '--yes', '--id', blank],
      ['failed', blank],
      ['failed', 'q', '--requeue', '--id', blank],
      ['purge', blank, '--yes'],
      ['drop', blank, '--yes'],
      ['export', blank],
      ['metrics', blank, '--port', '0'],
    );
  }
  for (const args of lines) {
    it(`crawlee-redis ${args.map((a) => JSON.stringify(a)).join(' ')}: exit 2, nothing written`, async () => {
      const before = await snapshot();
      const { code, stderr } = await cli(args);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/must not be empty or blank/);
      expect(await snapshot()).toEqual(before);
    });
  }
});
