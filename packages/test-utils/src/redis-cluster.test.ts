import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from './process-tools.js';
import { startRedisCluster, type RedisClusterHandle } from './redis-cluster.js';

describe('startRedisCluster', () => {
  let cluster: RedisClusterHandle;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('forms a 3-master cluster that covers every slot', async () => {
    expect(cluster.nodes).toHaveLength(3);
    const client = new Cluster(cluster.nodes);
    const info = String(await client.call('CLUSTER', 'INFO'));
    expect(info).toMatch(/cluster_state:ok/);
    expect(info).toMatch(/cluster_slots_assigned:16384/);
    expect(info).toMatch(/cluster_known_nodes:3/);
    expect(client.nodes('master')).toHaveLength(3);
    // Keys on different slots work through the Cluster client; one hash tag keeps a multi-key script on one slot.
    await client.set('a-key', '1');
    await client.set('z-key', '2');
    await client.mset('{t}:x', 'p', '{t}:y', 'q');
    expect(await client.eval("return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])", 2, '{t}:x', '{t}:y')).toBe('pq');
    await expect(client.eval("return redis.call('GET', KEYS[1])", 2, 'a-key', 'z-key')).rejects.toThrow(/CROSSSLOT/);
    client.disconnect();
  });

  it('stop() ends every node process', async () => {
    const pids = cluster.servers.map((s) => s.pid);
    await cluster.stop();
    expect(pids.map(isAlive)).toEqual([false, false, false]);
  });
});
