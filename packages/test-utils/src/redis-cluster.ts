import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import { redisCliBin, startRedisServer, type RedisServerHandle } from './redis-server.js';
import { run, sleep } from './process-tools.js';

/** Options for {@link startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** Number of master nodes. @defaultValue 3 */
  masters?: number;
  /** Replicas per master (`--cluster-replicas`); each replica is fully synced before the cluster is returned.
   * 0 to 4. @defaultValue 0 */
  replicas?: number;
  /** `cluster-node-timeout` in ms: how long a master may be unreachable before its replica takes over. A short
   * value (1000) makes a failover test fast; below 500 a busy machine sees false failovers. @defaultValue 5000 */
  clusterNodeTimeoutMs?: number;
  /** Seconds to wait for `cluster_state:ok` on every node. @defaultValue 30 */
  readyTimeoutSecs?: number;
}

/** A local Redis Cluster of daemonized `redis-server` processes, each stopped by PID. */
export interface RedisClusterHandle {
  /** Seed nodes for `new Cluster(nodes)` (masters and replicas). */
  nodes: Array<{ host: '127.0.0.1'; port: number }>;
  /** Every node process, masters first as created (roles change after a failover: read {@link clusterTopology}). */
  servers: RedisServerHandle[];
  /** The `cluster-node-timeout` the nodes run with, in ms. */
  clusterNodeTimeoutMs: number;
  /** Stops every node by PID and deletes their data directories. */
  stop(): Promise<void>;
}

/**
 * Starts `masters * (1 + replicas)` cluster-enabled servers on free loopback ports, joins them with
 * `redis-cli --cluster create --cluster-replicas <replicas>`, and waits until every node reports `cluster_state:ok`
 * and every replica's link to its master is up (initial sync done), so a failover right away has a synced replica.
 *
 * @throws {@link RedisUnavailableError} when redis-server or redis-cli is missing or the cluster does not form.
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const nodeTimeoutMs = options.clusterNodeTimeoutMs ?? 5000;
  if (!Number.isInteger(replicas) || replicas < 0 || replicas > 4) throw new RangeError(`replicas must be 0 to 4 (got ${replicas})`);
  if (!Number.isInteger(nodeTimeoutMs) || nodeTimeoutMs < 100) throw new RangeError(`clusterNodeTimeoutMs must be a whole number >= 100 (got ${nodeTimeoutMs})`);
  const servers: RedisServerHandle[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.destroy()));
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      servers.push(
        await startRedisServer({
          args: [
            '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs),
            // A replica's first sync starts at once (the default waits 5 s for more replicas to share one transfer).
            '--repl-diskless-sync-delay', '0',
          ],
        }),
      );
    }
    let created;
    try {
      created = await run(redisCliBin(), [
        '--cluster', 'create',
        ...servers.map((s) => `127.0.0.1:${s.port}`),
        '--cluster-replicas', String(replicas),
        '--cluster-yes',
      ], 60_000);
    } catch (error) {
      throw new RedisUnavailableError(`could not run ${redisCliBin()} (${(error as Error).message})`, { cause: error });
    }
    if (created.code !== 0) {
      throw new RedisUnavailableError(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    }
    const deadline = Date.now() + (options.readyTimeoutSecs ?? 30) * 1000;
    for (const server of servers) {
      const client = new Redis({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: 1 });
      try {
        while (!/cluster_state:ok/.test(String(await client.call('CLUSTER', 'INFO')))) {
          if (Date.now() > deadline) throw new RedisUnavailableError(`cluster node ${server.port} never reached cluster_state:ok`);
          await sleep(50);
        }
      } finally {
        client.disconnect();
      }
    }
    if (replicas > 0) await waitForReplicaLinks(servers, deadline);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: servers.map((s) => ({ host: '127.0.0.1' as const, port: s.port })),
    servers,
    clusterNodeTimeoutMs: nodeTimeoutMs,
    stop,
  };
}

/** Waits until every replica reports `master_link_status:up` (its initial sync is done). */
async function waitForReplicaLinks(servers: RedisServerHandle[], deadline: number): Promise<void> {
  for (const server of servers) {
    const client = new Redis({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: 1 });
    try {
      for (;;) {
        const info = await client.info('replication');
        if (/role:master/.test(info) || /master_link_status:up/.test(info)) break;
        if (Date.now() > deadline) throw new RedisUnavailableError(`replica ${server.port} never finished its sync with its master`);
        await sleep(50);
      }
    } finally {
      client.disconnect();
    }
  }
}

/** Removes leftover files of a cluster node directory (exported for tests that reuse a dir). */
export function clearClusterConfig(dir: string): void {
  rmSync(`${dir}/nodes.conf`, { force: true });
}
