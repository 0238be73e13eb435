import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_DOCS_DIR } from '../src/options.js';
import { outputDir } from './helpers/run-cli.js';
import { spawnCli, waitForPages } from './helpers/spawn-cli.js';

// A Redis that comes back without its data mid-crawl (here FLUSHALL on a redis-server of the test's own, as a
// restart without persistence leaves it): the workers must not re-create the queue and finish "successfully" with
// the pages lost; the run fails and names what happened.

let server: RedisServerHandle;
const dir = outputDir();
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('Redis loses its data mid-crawl', () => {
  it('the crawl exits non-zero with QueueMissingError, and the queue is not re-created', async () => {
    const queue = 'redis-lost';
    const run = spawnCli(['--site', POSTGRES_DOCS_DIR, '--queue', queue, '--redis', server.url, '--workers', '2', '--concurrency', '2', '--output', join(dir, 'pages.jsonl')]);
    const admin = new Redis(server.url);
    try {
      await waitForPages(server.url, queue, 20);
      await admin.flushall();
      const code = await run.exited;
      expect(code, run.output()).not.toBe(0);
      expect(run.output()).toMatch(/worker failed: QueueMissingError: .*metadata is gone/);
      expect(run.output()).toMatch(/appendonly/);
      expect(await admin.exists(`{crawlee:rq:${queue}}:meta`)).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
      admin.disconnect();
    }
  }, 200_000);
});
