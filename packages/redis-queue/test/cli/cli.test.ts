// The built `crawlee-redis` bin against the real Redis, on real queues seeded through the package API.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
import { queueIndexKey } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';
import { runBin, startBin } from './run-bin.js';

let backend: TestBackend;
let world: QueueWorld;
let url: string;
beforeAll(async () => {
  url = inject('redisUrl');
  backend = await createBackend('ioredis6-resp3', url);
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cli = (args: string[], input?: string) => runBin([...args, '--redis', url, '--key-prefix', world.keyPrefix], { input });

/** A queue with 5 requests: 1 handled by a worker that published its stats, 1 locked, 1 dead letter. */
async function seededQueue(): Promise<{ stopWorker(): Promise<void> }> {
  const c = await world.client('worker-a', { workerStats: { intervalSecs: 0.1, ttlSecs: 30 } });
  await c.batchAddRequests([req(1), req(2), req(3), req(4), req(5)]);
  const { items } = await c.listAndLockHead({ limit: 2, lockSecs: 60 });
  await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt: new Date().toISOString() });
  await world.redis.hset(c.keys.dead, 'junk-1', '{"url": truncated');
  await world.redis.hset(c.keys.deadInfo, 'junk-1', JSON.stringify({ reason: 'not JSON', source: 'queue', at: 1_700_000_000_000 }));
  await sleep(300); // two publishes
  // A live worker keeps publishing its record; stopping it is what a finished crawl does.
  return { stopWorker: () => (c as unknown as { core: { workerStats: { close(): Promise<void> } } }).core.workerStats.close() };
}

describe('crawlee-redis', () => {
  it('ls, stats and workers read the queue, in JSON and in text', async () => {
    world = createWorld(backend);
    await seededQueue();
    const ls = await cli(['ls', '--json']);
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout)).toEqual([{ name: 'queue', total: 5, pending: 4, locked: 1, handled: 1, deadLetters: 1, workersAlive: 1 }]);
    const lsText = await cli(['ls']);
    expect(lsText.stdout.split('\n')[0]).toMatch(/^QUEUE\s+TOTAL\s+PENDING\s+LOCKED\s+HANDLED\s+DEAD\s+WORKERS$/);
    expect(lsText.stdout.split('\n')[1]).toMatch(/^queue\s+5\s+4\s+1\s+1\s+1\s+1$/);

    const stats = JSON.parse((await cli(['stats', 'queue', '--json'])).stdout);
    expect(stats).toMatchObject({ queue: 'queue', total: 5, pending: 4, locked: 1, handled: 1, deadLetters: 1, workers: { alive: 1, stopped: 0, dead: 0 } });
    expect(stats.crawl).toMatchObject({ handled: 1, failed: 0, retried: 0 });
    expect(stats.queueBytes).toBeGreaterThan(0);
    const statsText = (await cli(['stats', 'queue'])).stdout;
    expect(statsText).toMatch(/handled:\s+1 \(20\.0%\)/);
    expect(statsText).toMatch(/workers:\s+1 alive, 0 stopped, 0 dead/);

    const workers = JSON.parse((await cli(['workers', 'queue', '--json'])).stdout);
    expect(workers).toMatchObject([{ state: 'alive', clientKey: 'worker-a', handled: 1, locks: 1, pid: process.pid }]);
    const workersText = (await cli(['workers', 'queue'])).stdout.split('\n');
    expect(workersText[0]).toMatch(/^WORKER\s+STATE\s+HANDLED\s+FAILED\s+RETRIED\s+LOCKS\s+LAPSES\s+REQ\/S/);
    expect(workersText[1]).toContain(workers[0].id);
  });

  it('seed reads URLs and JSON lines from stdin or a file, dedups by uniqueKey, rejects bad input without writing', async () => {
    world = createWorld(backend);
    const lines = ['https://example.com/a', '{"url":"https://example.com/b","userData":{"label":"B"}}', '"https://example.com/c"', '', 'https://example.com/a'];
    const seeded = await cli(['seed', 'fresh', '-', '--json'], lines.join('\n'));
    expect(seeded.code).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ read: 4, added: 3, alreadyPresent: 1, invalid: 0 });
    const c = await world.client('check');
    const admin = new (world.admin().constructor as typeof import('../../src/admin/redis-queue-admin.js').RedisQueueAdmin)({ redis: world.redis, keyPrefix: world.keyPrefix, name: 'fresh' });
    expect(await admin.stats()).toMatchObject({ total: 3, pending: 3 });
    void c;

    const bad = await cli(['seed', 'fresh', '-'], 'https://example.com/d\nftp://nope\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('line 2');
    expect((await admin.stats()).total).toBe(3); // nothing written
    const skipped = await cli(['seed', 'fresh', '-', '--skip-invalid', '--json'], 'https://example.com/d\nftp://nope\n');
    expect(JSON.parse(skipped.stdout)).toMatchObject({ added: 1, invalid: 1, invalidLines: [{ line: 2 }] });
    await admin.dropHashTag();
  });

  it('seed --shards creates a sharded queue; seed, stats and ls then work on it with the recorded layout', async () => {
    world = createWorld(backend, 'sq', { shards: 4 });
    const urls = Array.from({ length: 20 }, (_, i) => `https://h${i % 5}.example/${i}`);
    const seeded = await cli(['seed', 'sq', '-', '--shards', '4', '--json'], urls.join('\n'));
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ added: 20 });
    const again = await cli(['seed', 'sq', '-', '--json'], `${urls[0]!}\nhttps://h9.example/new`);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 1, alreadyPresent: 1 });
    const refused = await cli(['seed', 'sq', '-', '--shards', '2'], 'https://h1.example/x');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/created with shards: 4.*opened with shards: 2/);
    const stats = await cli(['stats', 'sq', '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ queue: 'sq', total: 21, pending: 21 });
    const ls = await cli(['ls', '--json']);
    expect(JSON.parse(ls.stdout)).toEqual([expect.objectContaining({ name: 'sq', total: 21 })]);
    // A client with the same layout sees what the CLI added.
    expect((await (await world.client('check')).get())?.totalRequestCount).toBe(21);
  });

  it('destructive commands refuse without --yes when stdin is not a terminal (exit 2), and run with it', async () => {
    world = createWorld(backend);
    const worker = await seededQueue();
    const refused = await cli(['purge', 'queue']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to purge queue "queue" \(5 requests\) without confirmation: stdin is not a terminal; pass --yes/);
    expect((await world.admin().stats()).total).toBe(5);

    const purged = await cli(['purge', 'queue', '--yes', '--json']);
    expect(JSON.parse(purged.stdout)).toEqual({ queue: 'queue', removed: 5 });
    expect(await world.admin().stats()).toMatchObject({ total: 0, deadLetters: 0 });

    // drop: every key of the hash tag, a dedup key with the queue's tag and the worker stats included.
    const keys = world.admin().keys;
    await world.redis.sadd(`${keys.tag}:dupefilter`, 'f1');
    await worker.stopWorker();
    expect((await cli(['drop', 'queue'])).code).toBe(2);
    const dropped = await cli(['drop', 'queue', '--yes', '--json']);
    expect(dropped.code).toBe(0);
    expect(JSON.parse(dropped.stdout).otherKeysDeleted).toBeGreaterThanOrEqual(3); // workers, stats, dupefilter (+ worker record)
    expect(await world.redis.keys(`*${keys.tag.slice(1, -1)}*`)).toEqual([]);
    expect(await world.redis.sismember(queueIndexKey(world.keyPrefix), 'queue')).toBe(0);
  });

  it('dead-letters lists, requeues and deletes; failed counts; forget re-allows a key', async () => {
    world = createWorld(backend);
    await seededQueue();
    const letters = JSON.parse((await cli(['dead-letters', 'queue', '--json'])).stdout);
    expect(letters).toEqual([{ id: 'junk-1', source: 'queue', at: '2023-11-14T22:13:20.000Z', reason: 'not JSON', raw: '{"url": truncated', rawEncoding: 'utf8' }]);
    expect((await cli(['dead-letters', 'queue', '--delete'])).code).toBe(2);
    expect(JSON.parse((await cli(['dead-letters', 'queue', '--delete', '--yes', '--json'])).stdout)).toEqual({ deleted: 1 });
    expect((await world.admin().stats()).deadLetters).toBe(0);
    await world.redis.hset(world.admin().keys.dead, requestIdOf(req(9).uniqueKey), JSON.stringify(req(9)));
    const requeued = JSON.parse((await cli(['dead-letters', 'queue', '--requeue', '--json'])).stdout);
    expect(requeued).toEqual({ requeued: 1, skipped: 0, unreadable: [] });

    const failed = await cli(['failed', 'queue', '--json']);
    expect(JSON.parse(failed.stdout)).toEqual({ queue: 'queue', failed: 0, countedByWorkers: 0, retried: 0 });
    expect((await cli(['failed', 'queue', '--requeue'])).code).toBe(2); // destructive: needs --yes

    const forgot = await cli(['forget', 'queue', 'https://example.com/1', 'https://example.com/nope', '--yes', '--json']);
    expect(JSON.parse(forgot.stdout).results).toEqual([
      { key: 'https://example.com/1', forgotten: true, uniqueKeys: ['https://example.com/1'] },
      { key: 'https://example.com/nope', forgotten: false, uniqueKeys: [] },
    ]);
    const c = await world.client('again');
    expect((await c.addRequest(req(1))).wasAlreadyPresent).toBe(false);
  });

  it('failed --list and --requeue work on the failed index; forget --dedup-key also forgets in a set store', async () => {
    world = createWorld(backend);
    const c = await world.client('worker-f');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    const { items } = await c.listAndLockHead({ limit: 3, lockSecs: 60 });
    const byUrl = new Map(items.map((item) => [item.url, item.id]));
    const failedState = { __crawlee: { state: 5 } }; // Crawlee's RequestState.ERROR_HANDLER
    await c.updateRequest({ ...req(1), id: byUrl.get(req(1).url)!, handledAt: new Date().toISOString(), retryCount: 3, errorMessages: ['boom'], userData: failedState });
    await c.updateRequest({ ...req(2), id: byUrl.get(req(2).url)!, handledAt: new Date().toISOString() });
    expect(JSON.parse((await cli(['failed', 'queue', '--json'])).stdout)).toMatchObject({ failed: 1 });
    const listed = JSON.parse((await cli(['failed', 'queue', '--list', '--json'])).stdout);
    expect(listed).toMatchObject([{ url: req(1).url, state: 'kept', retryCount: 3, lastError: 'boom' }]);
    expect((await cli(['failed', 'queue', '--list', '--limit', '0'])).code).toBe(2);
    const requeued = JSON.parse((await cli(['failed', 'queue', '--requeue', '--yes', '--json'])).stdout);
    expect(requeued).toMatchObject({ requeued: 1, alreadyQueued: 0, skipped: 0, missing: 0 });
    expect(await world.admin().stats()).toMatchObject({ total: 3, pending: 2, handled: 1 });
    const back = await c.getRequest(byUrl.get(req(1).url)!);
    expect(back).toMatchObject({ retryCount: 0, errorMessages: ['boom'] });
    expect((back as { handledAt?: unknown }).handledAt).toBeUndefined();

    const setKey = `${world.keyPrefix}:dupefilter`;
    await world.redis.sadd(setKey, req(2).uniqueKey, 'other');
    const bloomKey = `${world.keyPrefix}:bloom`;
    await world.redis.set(bloomKey, 'bits');
    const refused = await cli(['forget', 'queue', req(2).url, '--dedup-key', bloomKey, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot forget');
    expect((await world.admin().stats()).handled).toBe(1); // nothing changed
    const forgot = JSON.parse((await cli(['forget', 'queue', req(2).url, '--dedup-key', setKey, '--yes', '--json'])).stdout);
    expect(forgot.results).toEqual([{ key: req(2).url, forgotten: true, uniqueKeys: [req(2).uniqueKey], removedFromStore: true }]);
    expect(await world.redis.smembers(setKey)).toEqual(['other']);
    await world.redis.del(setKey, bloomKey);
  });

  it('seed holds a producer lease while it reads its input, so running workers do not finish', async () => {
    world = createWorld(backend);
    const bin = startBin(['seed', 'queue', '-', '--lease-secs', '5', '--json', '--redis', url, '--key-prefix', world.keyPrefix]);
    const admin = world.admin();
    const deadline = Date.now() + 15_000;
    while ((await admin.producerLeases()).length === 0 && Date.now() < deadline) await sleep(50);
    const c = await world.client('worker-idle');
    // The input is still open: the queue is empty, yet a worker is told it is not finished.
    expect((await c.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(true);
    bin.child.stdin!.end('https://example.com/late\n');
    expect(await bin.exited).toBe(0);
    expect(JSON.parse(bin.output())).toMatchObject({ added: 1 });
    expect(await admin.producerLeases()).toEqual([]);
    const head = await c.listAndLockHead({ limit: 1, lockSecs: 10 });
    expect(head.items.map((i) => i.url)).toEqual(['https://example.com/late']);
    expect(head.queueHasLockedRequests).toBe(true); // its own lock now
    expect((await world.admin().stats()).total).toBe(1);
    expect((await cli(['seed', 'queue', '-', '--lease-secs', '0'], 'https://example.com/x')).code).toBe(2);
  });

  it('watch prints frames with counts, rate and worker rows (JSON lines and text)', async () => {
    world = createWorld(backend);
    await seededQueue();
    const json = await cli(['watch', 'queue', '--frames', '3', '--interval', '0.2', '--json']);
    expect(json.code).toBe(0);
    const frames = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { frame: number; queueRate?: number });
    expect(frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    expect(frames[2]).toMatchObject({ total: 5, handled: 1, workers: [{ state: 'alive', clientKey: 'worker-a' }] });
    expect(frames[0]!.queueRate).toBeUndefined();
    expect(typeof frames[1]!.queueRate).toBe('number');
    const text = await cli(['watch', 'queue', '--frames', '2', '--interval', '0.2']);
    const headers = text.stdout.split('\n').filter((line) => line.startsWith('crawlee-redis watch queue'));
    expect(headers).toHaveLength(2);
    expect(text.stdout).toMatch(/handled 1 \/ 5 \(20\.0%\)\s+pending 4\s+locked 1\s+dead letters 1/);
    expect(text.stdout).toMatch(/WORKER\s+STATE[\s\S]*alive/);
  });

  it('watch without --frames runs in a pipe until SIGINT: one frame per interval, then exit 0', async () => {
    world = createWorld(backend);
    await seededQueue();
    const run = startBin(['watch', 'queue', '--interval', '0.2', '--redis', url, '--key-prefix', world.keyPrefix]);
    const headers = () => run.output().split('\n').filter((line) => line.startsWith('crawlee-redis watch queue'));
    for (let i = 0; i < 200 && headers().length < 4; i++) await sleep(50);
    expect(headers().length, run.errors()).toBeGreaterThanOrEqual(4);
    // A pipe gets plain frames, one after the other: no cursor movement or screen clearing.
    expect(run.output()).not.toContain('\x1b');
    expect(run.output()).toMatch(/handled 1 \/ 5 \(20\.0%\)\s+pending 4/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.errors()).toBe('');
    for (const frames of ['0', '1.5', 'x']) {
      const bad = await cli(['watch', 'queue', '--frames', frames]);
      expect(bad.code, frames).toBe(2);
      expect(bad.stderr).toContain('--frames must be a positive integer');
    }
  });

  it('usage errors exit 2, runtime errors exit 1, credentials are masked', async () => {
    world = createWorld(backend);
    expect((await cli(['stats'])).code).toBe(2); // missing argument
    expect((await cli(['ls', '--bogus'])).code).toBe(2);
    const braces = await cli(['stats', 'a{b}']);
    expect(braces.code).toBe(2);
    expect(braces.stderr).toMatch(/queue name must be a non-empty string without "\{" or "\}"/);
    const missing = await cli(['stats', 'no-such-queue']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/queue "no-such-queue" does not exist.*crawlee-redis ls/);

    // A password in the URL (the test Redis' default user has none, so AUTH with any password succeeds).
    const withPassword = url.replace('redis://', 'redis://default:s3cret-pw@');
    const masked = await runBin(['stats', 'no-such-queue', '--redis', withPassword, '--key-prefix', world.keyPrefix]);
    expect(masked.code).toBe(1);
    expect(masked.stderr).toContain('default:***@');
    expect(masked.stderr).not.toContain('s3cret-pw');
    const unreachable = await runBin(['ls', '--redis', 'redis://u:s3cret-pw@127.0.0.1:1']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot connect to Redis at redis:\/\/u:\*\*\*@127\.0\.0\.1:1/);
    expect(unreachable.stderr).not.toContain('s3cret-pw');
    // A rejected key prefix exits at once (usage error, exit 2), for every command: the process does not stay alive.
    for (const args of [['ls', '--key-prefix', ''], ['stats', 'x', '--key-prefix', 'a{'], ['seed', 'q', '--key-prefix', 'a:ds']]) {
      const bad = await runBin([...args, '--redis', url]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(/--key-prefix/);
    }
    // REDIS_URL is the default.
    const fromEnv = await runBin(['ls', '--json', '--key-prefix', world.keyPrefix], { env: { REDIS_URL: url } });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toEqual([]);
  });

  it('metrics serves Prometheus text on loopback until SIGTERM', async () => {
    world = createWorld(backend);
    await seededQueue();
    const run = startBin(['metrics', '--port', '0', '--json', '--redis', url, '--key-prefix', world.keyPrefix]);
    try {
      for (let i = 0; i < 300 && !run.output().includes('\n'); i++) await sleep(50);
      const { url: endpoint } = JSON.parse(run.output()) as { url: string };
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const response = await fetch(endpoint);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(text).toContain('crawlee_queue_pending_requests{queue="queue"} 4');
      expect(text).toContain('crawlee_queue_handled_requests_total{queue="queue"} 1');
      expect(text).toMatch(/crawlee_worker_up\{queue="queue",worker="[^"]+",host="[^"]+"\} 1/);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
  });
});

describe('crawlee-redis program-level options and takeover of a missing key', () => {
  it('--redis, --key-prefix and --json are accepted before the command; one after the command wins', async () => {
    world = createWorld(backend);
    await (await world.client('w')).batchAddRequests([req(1), req(2)]);
    const before = await runBin(['--redis', url, '--key-prefix', world.keyPrefix, '--json', 'ls']);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject([{ name: 'queue', total: 2, pending: 2 }]);
    const inner = await runBin(['--key-prefix', world.keyPrefix, 'ls', '--redis', url, '--key-prefix', `${world.keyPrefix}-other`, '--json']);
    expect(inner.code, inner.stderr).toBe(0);
    expect(JSON.parse(inner.stdout)).toEqual([]);
  });

  it('takeover from a key that does not exist: exit 1, says so, no queue created', async () => {
    world = createWorld(backend, `tk-${Date.now()}`);
    const missing = `${world.keyPrefix}-nosuchspider:requests`;
    const res = await cli(['takeover', world.name, '--from', missing]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`nothing to take over: key ${missing} does not exist`);
    expect(await world.redis.exists(world.admin().keys.meta)).toBe(0);
    expect(await world.redis.scard(queueIndexKey(world.keyPrefix))).toBe(0);
  });
});
