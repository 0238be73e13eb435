// The durability option on a real 3-master / 3-replica cluster: adds, handled marks and reclaims resolve only after
// a replica acknowledged them (Redis WAIT on the master of the queue's slot), one WAIT covers the writes of a turn,
// a shortfall is a typed error (the write stays applied), and through a SIGKILLed master every add that resolved
// is on the promoted replica.
import { randomUUID } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { killMasterAndWaitForFailover, masterOfSlot, startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplicasNotAcknowledgedError } from '../../src/errors/replicas-not-acknowledged-error.js';
import { queueKeys } from '../../src/core/keys.js';
import { RedisStorageClient, type RedisStorageClientOptions } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';

let cluster: RedisClusterHandle;
const connections: Cluster[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicas: 1, clusterNodeTimeoutMs: 1000 });
}, 60_000);
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await cluster?.stop();
});

function connect(): Cluster {
  const redis = new Cluster(cluster.nodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } });
  redis.on('error', () => undefined);
  connections.push(redis);
  return redis;
}

async function openQueue(name: string, options: Partial<RedisStorageClientOptions>): Promise<RedisRequestQueueClient> {
  const storage = new RedisStorageClient({ redis: connect(), keyPrefix: 'dur', workerStats: false, ...options });
  await storage.requestQueues().getOrCreate(name);
  return storage.requestQueue(name, { clientKey: randomUUID() }) as RedisRequestQueueClient;
}

/** The master process of a queue's slot and a direct connection to it. */
async function masterOf(name: string): Promise<{ port: number; node: Redis }> {
  const probe = connect();
  const slot = Number(await probe.cluster('KEYSLOT', queueKeys('dur', name).tag));
  const master = await masterOfSlot(cluster, slot);
  const node = new Redis({ port: master.port, host: '127.0.0.1' });
  return { port: master.port, node };
}

async function waitCalls(node: Redis): Promise<number> {
  const stats = await node.info('commandstats');
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

const request = (i: number) => ({ url: `https://example.com/${i}`, uniqueKey: `u${i}` });

describe('durability: WAIT after adds, handled marks and reclaims', () => {
  it('every write waits for the replica; one WAIT covers the writes of one turn', async () => {
    const name = `batch-${randomUUID().slice(0, 8)}`;
    const queue = await openQueue(name, { durability: { replicas: 1, timeoutSecs: 5 } });
    const { node } = await masterOf(name);
    try {
      const before = await waitCalls(node);
      // 200 adds from concurrent tasks, one request each (what enqueueLinks of many handlers looks like).
      await Promise.all(Array.from({ length: 200 }, (_, i) => queue.addRequest(request(i))));
      const afterAdds = await waitCalls(node);
      expect(afterAdds - before).toBeGreaterThanOrEqual(1);
      expect(afterAdds - before).toBeLessThanOrEqual(50);
      const head = await queue.listAndLockHead({ limit: 20, lockSecs: 30 });
      expect(head.items).toHaveLength(20);
      const handled = head.items.slice(0, 10);
      const reclaimed = head.items.slice(10);
      await Promise.all([
        ...handled.map((item) => queue.updateRequest({ ...item, id: item.id, handledAt: new Date().toISOString() })),
        ...reclaimed.map((item) => queue.updateRequest({ ...item, id: item.id })),
      ]);
      const afterUpdates = await waitCalls(node);
      expect(afterUpdates - afterAdds).toBeGreaterThanOrEqual(1);
      expect(afterUpdates - afterAdds).toBeLessThan(20);
      // The lock itself is not a durable write (a lost lock only lets a request run twice): no WAIT for it.
      const locked = await waitCalls(node);
      await queue.listAndLockHead({ limit: 5, lockSecs: 30 });
      expect(await waitCalls(node)).toBe(locked);
    } finally {
      node.disconnect();
    }
  });

  it('without the option no WAIT is sent', async () => {
    const name = `off-${randomUUID().slice(0, 8)}`;
    const queue = await openQueue(name, {});
    const { node } = await masterOf(name);
    try {
      const before = await waitCalls(node);
      await Promise.all(Array.from({ length: 20 }, (_, i) => queue.addRequest(request(i))));
      expect(await waitCalls(node)).toBe(before);
    } finally {
      node.disconnect();
    }
  });

  it('a write resolves only once the replica has it: a replica that sleeps holds the add back', async () => {
    const name = `lag-${randomUUID().slice(0, 8)}`;
    const queue = await openQueue(name, { durability: { replicas: 1, timeoutSecs: 10 } });
    const { port, node } = await masterOf(name);
    // The replica of this master: the node whose INFO replication names the master's port.
    let replica: { pid: number; client: Redis } | undefined;
    for (const s of cluster.servers) {
      const r = new Redis({ port: s.port, host: '127.0.0.1' });
      if (new RegExp(`master_port:${port}\\b`).test(await r.info('replication'))) replica = { pid: s.pid, client: r };
      else r.disconnect();
    }
    expect(replica).toBeDefined();
    try {
      await queue.addRequest(request(0));
      // SIGSTOP: the replica reads no replication stream (a stalled or far-away replica) until SIGCONT, 800 ms later.
      process.kill(replica!.pid, 'SIGSTOP');
      const resume = setTimeout(() => process.kill(replica!.pid, 'SIGCONT'), 800);
      const started = Date.now();
      try {
        await queue.addRequest(request(1));
      } finally {
        clearTimeout(resume);
        process.kill(replica!.pid, 'SIGCONT');
      }
      const waitedMs = Date.now() - started;
      // It cannot resolve before the replica wakes (lower bound only; never an upper bound on a busy machine).
      expect(waitedMs).toBeGreaterThanOrEqual(700);
      await replica!.client.call('READONLY');
      expect(await replica!.client.hlen(queueKeys('dur', name).data)).toBe(2);
    } finally {
      replica?.client.disconnect();
      node.disconnect();
    }
  });

  it('fewer replicas than required: ReplicasNotAcknowledgedError says so, and the write is applied', async () => {
    const name = `short-${randomUUID().slice(0, 8)}`;
    const queue = await openQueue(name, { durability: { replicas: 2, timeoutSecs: 0.2 } });
    const error = await queue.addRequest(request(7)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplicasNotAcknowledgedError);
    expect(error).toMatchObject({ code: 'REPLICAS_NOT_ACKNOWLEDGED', acknowledged: 1, required: 2 });
    expect((error as Error).message).toMatch(/1 of 2 replicas acknowledged it within durability.timeoutSecs = 0.2 s/);
    expect((error as Error).message).toMatch(/Retrying the operation is safe/);
    // The master has it; a retry is an idempotent no-op that reports it present.
    expect((await queue.listHead({ limit: 10 })).items.map((i) => i.uniqueKey)).toEqual(['u7']);
  });

  it('through a SIGKILLed master: every add that resolved is on the promoted replica', async () => {
    const name = `kill-${randomUUID().slice(0, 8)}`;
    const queue = await openQueue(name, { durability: { replicas: 1, timeoutSecs: 10 } });
    const probe = connect();
    const slot = Number(await probe.cluster('KEYSLOT', queueKeys('dur', name).tag));
    const master = await masterOfSlot(cluster, slot);
    const resolved: string[] = [];
    const failed = new Map<string, number>();
    let stop = false;
    let next = 0;
    // Four writers, one add each at a time, until well after the failover.
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const i = next++;
        try {
          resolved.push((await queue.addRequest(request(i))).requestId);
        } catch (error) {
          const key = (error as { code?: string }).code ?? (error as Error).message;
          failed.set(key, (failed.get(key) ?? 0) + 1);
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { promoted, downMs } = await killMasterAndWaitForFailover(cluster, master);
    // The killed node comes back and rejoins as the new master's replica, so WAIT can be satisfied again.
    await master.restart();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    stop = true;
    await Promise.all(writers);
    // Read back through a fresh client (no local cache) from the promoted master.
    const reader = await openQueue(name, {});
    const lost: string[] = [];
    for (const id of resolved) if ((await reader.getRequest(id)) === undefined) lost.push(id);
    console.log(
      `durability through a failover: ${resolved.length} adds resolved, ${[...failed.values()].reduce((a, b) => a + b, 0)} threw ` +
        `(${JSON.stringify(Object.fromEntries(failed))}), slot down ${downMs} ms, promoted ${promoted.port}, lost ${lost.length}`,
    );
    expect(resolved.length).toBeGreaterThan(10);
    expect(lost).toEqual([]);
  }, 90_000);
});

