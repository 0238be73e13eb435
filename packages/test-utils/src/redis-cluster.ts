import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import { redisCliBin, startRedisServer, type RedisServerHandle } from './redis-server.js';
import { run, sleep } from './process-tools.js';

/** Options for {@link startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** Number of master nodes (no replicas). @defaultValue 3 */
  masters?: number;
  /** Seconds to wait for `cluster_state:ok` on every node. @defaultValue 30 */
  readyTimeoutSecs?: number;
}

/** A local Redis Cluster of daemonized `redis-server` processes, each stopped by PID. */
export interface RedisClusterHandle {
  /** Seed nodes for `new Cluster(nodes)`. */
  nodes: Array<{ host: '127.0.0.1'; port: number }>;
  servers: RedisServerHandle[];
  /** Stops every node by PID and deletes their data directories. */
  stop(): Promise<void>;
}

/**
 * Starts `masters` cluster-enabled servers on free loopback ports, joins them with
 * `redis-cli --cluster create --cluster-replicas 0`, and waits until every node reports `cluster_state:ok`.
 *
 * @throws {@link RedisUnavailableError} when redis-server or redis-cli is missing or the cluster does not form.
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const servers: RedisServerHandle[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.destroy()));
  };
  try {
    for (let i = 0; i < masters; i++) {
      servers.push(
        await startRedisServer({
          args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000'],
        }),
      );
    }
    let created;
    try {
      created = await run(redisCliBin(), [
        '--cluster', 'create',
        ...servers.map((s) => `127.0.0.1:${s.port}`),
        '--cluster-replicas', '0',
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
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: servers.map((s) => ({ host: '127.0.0.1' as const, port: s.port })),
    servers,
    stop,
  };
}

/** Removes leftover files of a cluster node directory (exported for tests that reuse a dir). */
export function clearClusterConfig(dir: string): void {
  rmSync(`${dir}/nodes.conf`, { force: true });
}
