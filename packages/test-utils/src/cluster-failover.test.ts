import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterTopology, killMasterAndWaitForFailover, masterOfSlot, parseClusterNodes } from './cluster-failover.js';
import { isAlive } from './process-tools.js';
import { startRedisCluster, type RedisClusterHandle } from './redis-cluster.js';

describe('parseClusterNodes', () => {
  it('reads ids, roles, masters, fail flags and slot ranges', () => {
    const nodes = parseClusterNodes(
      [
        'a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 7000',
        'b2 127.0.0.1:7001@17001 slave a1 0 1700000000000 1 connected',
        'c3 127.0.0.1:7002@17002 master,fail - 1700000000000 1700000000000 2 disconnected',
        'd4 127.0.0.1:7003@17003 master - 0 0 3 connected 5461-16383 [99->-a1]',
      ].join('\n'),
    );
    expect(nodes).toEqual([
      { id: 'a1', port: 7000, role: 'master', failed: false, slots: [[0, 5460], [7000, 7000]] },
      { id: 'b2', port: 7001, role: 'replica', masterId: 'a1', failed: false, slots: [] },
      { id: 'c3', port: 7002, role: 'master', failed: true, slots: [] },
      { id: 'd4', port: 7003, role: 'master', failed: false, slots: [[5461, 16383]] },
    ]);
  });
});

describe('startRedisCluster with replicas, and a master failover', () => {
  let cluster: RedisClusterHandle;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicas: 1, clusterNodeTimeoutMs: 1000 });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('forms 3 masters with one synced replica each, on the given node timeout', async () => {
    expect(cluster.servers).toHaveLength(6);
    expect(cluster.clusterNodeTimeoutMs).toBe(1000);
    const nodes = await clusterTopology(cluster);
    const masters = nodes.filter((n) => n.role === 'master');
    expect(masters).toHaveLength(3);
    for (const m of masters) expect(nodes.filter((n) => n.masterId === m.id)).toHaveLength(1);
    const client = new Cluster(cluster.nodes);
    expect(String(await client.call('CLUSTER', 'INFO'))).toMatch(/cluster_slots_assigned:16384/);
    expect(String(await client.config('GET', 'cluster-node-timeout'))).toContain('1000');
    // WAIT 1 on the master of a key's slot: its replica acknowledges the write.
    await client.set('{failover-t}:k', 'v');
    const acked = await client.pipeline().exists('{failover-t}:k').call('WAIT', '1', '2000').exec();
    expect(acked?.[1]?.[1]).toBe(1);
    client.disconnect();
  });

  it('kills the master of a slot by PID; its replica takes the slot with the replicated data', async () => {
    const client = new Cluster(cluster.nodes, { redisOptions: { maxRetriesPerRequest: null } });
    client.on('error', () => undefined);
    await client.set('{failover-t}:before', 'kept');
    const slot = Number(await client.cluster('KEYSLOT', '{failover-t}:before'));
    const master = await masterOfSlot(cluster, slot);
    // The write reached the replica before the kill (WAIT), so the promoted replica has it.
    expect(await client.pipeline().exists('{failover-t}:before').call('WAIT', '1', '2000').exec()).toEqual([[null, 1], [null, 1]]);
    const oldPid = master.pid;
    const { promoted, downMs } = await killMasterAndWaitForFailover(cluster, master);
    expect(isAlive(oldPid)).toBe(false);
    expect(promoted.port).not.toBe(master.port);
    expect((await masterOfSlot(cluster, slot)).port).toBe(promoted.port);
    // Failure detection takes about the node timeout; a failover that took longer than 20 node timeouts is broken.
    expect(downMs).toBeGreaterThan(500);
    expect(downMs).toBeLessThan(20_000);
    expect(await client.get('{failover-t}:before')).toBe('kept');
    await client.set('{failover-t}:after', 'new');
    expect(await client.get('{failover-t}:after')).toBe('new');
    client.disconnect();
  }, 60_000);

  it('refuses to fail over a node that is not a live master', async () => {
    const nodes = await clusterTopology(cluster);
    const replica = nodes.find((n) => n.role === 'replica' && !n.failed)!;
    const server = cluster.servers.find((s) => s.port === replica.port)!;
    await expect(killMasterAndWaitForFailover(cluster, server)).rejects.toThrow(/is not a master/);
    expect(isAlive(server.pid)).toBe(true);
  });
});
