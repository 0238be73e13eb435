import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an ES module in a plain Node process (vitest keeps its own workers alive, which would hide an early exit). */
async function runModule(source: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: PACKAGE_DIR, timeout: 30_000 });
  return stdout;
}

describe('close() of a used connection', () => {
  it.each([
    ['RedisStorageClient', "const c = new RedisStorageClient({ redis: url, keyPrefix }); await c.requestQueues().getOrCreate('close-test'); await c.close();"],
    ['RedisQueueAdmin', "const a = new RedisQueueAdmin({ redis: url, keyPrefix, name: 'close-test' }); await a.stats(); await a.close();"],
    [
      'RedisStorageClient with operations started in the same turn',
      "const c = new RedisStorageClient({ redis: url, keyPrefix }); await c.requestQueues().getOrCreate('close-test');" +
        " const q = c.requestQueue('close-test', { clientKey: 'a' }); await q.addRequest({ url: 'https://e.com/1', uniqueKey: 'https://e.com/1' });" +
        " const [item] = (await q.listAndLockHead({ limit: 1, lockSecs: 60 })).items;" +
        " const pending = [q.prolongRequestLock(item.id, { lockSecs: 60 }), q.updateRequest({ url: 'https://e.com/1', uniqueKey: 'https://e.com/1', id: item.id, handledAt: new Date().toISOString() }), q.addRequest({ url: 'https://e.com/2', uniqueKey: 'https://e.com/2' })];" +
        " await c.close(); const settled = await Promise.allSettled(pending); if (settled.some((r) => r.status !== 'fulfilled')) throw new Error(JSON.stringify(settled));",
    ],
  ])('%s: the code after `await close()` runs (Node does not exit while QUIT is in flight)', async (_name, body) => {
    const url = inject('redisUrl');
    const keyPrefix = `close-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const stdout = await runModule(`
      import { RedisStorageClient, RedisQueueAdmin } from 'crawlee-redis-queue';
      const url = ${JSON.stringify(url)};
      const keyPrefix = ${JSON.stringify(keyPrefix)};
      ${body}
      console.log('after close');
      const cleanup = new RedisQueueAdmin({ redis: url, keyPrefix, name: 'close-test' });
      await cleanup.drop();
      await cleanup.close();
      console.log('done');
    `);
    expect(stdout).toContain('after close');
    expect(stdout).toContain('done');
  });
});
