import { Redis } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import { isAlive, sleep, stopPid } from './process-tools.js';
import type { RedisClusterHandle } from './redis-cluster.js';
import type { RedisServerHandle } from './redis-server.js';

/** One node as `CLUSTER NODES` describes it. */
export interface ClusterNodeEntry {
  /** The 40-character node id. */
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** Node id of its master (replicas), else undefined. */
  masterId?: string;
  /** Marked failed (`fail`) by the majority of masters. */
  failed: boolean;
  /** Slot ranges served (masters), as `[first, last]`. */
  slots: Array<[number, number]>;
}

/**
 * Parses `CLUSTER NODES` output (one line per node: id, address, flags, master id, ..., slots).
 * @param text - the reply
 * @returns the nodes
 */
export function parseClusterNodes(text: string): ClusterNodeEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.trim().split(' ');
      const flagSet = new Set(flags!.split(','));
      const port = Number(/:(\d+)@/.exec(address!)?.[1]);
      return {
        id: id!,
        port,
        role: flagSet.has('master') ? 'master' : 'replica',
        ...(master !== '-' ? { masterId: master } : {}),
        failed: flagSet.has('fail'),
        // Importing/migrating markers (`[slot->-id]`) are not served slots.
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
          const [first, last] = s.split('-').map(Number);
          return [first!, last ?? first!] as [number, number];
        }),
      };
    });
}

async function withNode<T>(port: number, run: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await run(client);
  } finally {
    client.disconnect();
  }
}

/**
 * The cluster's nodes as seen by one live node.
 * @param cluster - the cluster
 * @returns the nodes, from the first node process still alive
 * @throws {@link RedisUnavailableError} when no node answers
 */
export async function clusterTopology(cluster: RedisClusterHandle): Promise<ClusterNodeEntry[]> {
  let lastError: unknown;
  for (const server of cluster.servers) {
    if (!isAlive(server.pid)) continue;
    try {
      return parseClusterNodes(String(await withNode(server.port, (c) => c.call('CLUSTER', 'NODES'))));
    } catch (error) {
      lastError = error;
    }
  }
  throw new RedisUnavailableError('no node of the cluster answers CLUSTER NODES', { cause: lastError });
}

/**
 * The server process of the master that serves `slot` now.
 * @param cluster - the cluster
 * @param slot - a hash slot, 0 to 16383
 * @returns the master's process handle
 */
export async function masterOfSlot(cluster: RedisClusterHandle, slot: number): Promise<RedisServerHandle> {
  const nodes = await clusterTopology(cluster);
  const master = nodes.find((n) => n.role === 'master' && !n.failed && n.slots.some(([a, b]) => slot >= a && slot <= b));
  const server = master && cluster.servers.find((s) => s.port === master.port);
  if (!server) throw new RedisUnavailableError(`no live master serves slot ${slot}`);
  return server;
}

/** What {@link killMasterAndWaitForFailover} observed. */
export interface FailoverResult {
  /** The replica that became master of the killed master's slots. */
  promoted: RedisServerHandle;
  /** Milliseconds from the SIGKILL until every live node reported `cluster_state:ok` with the replica serving the
   * slots. */
  downMs: number;
}

/**
 * SIGKILLs a master by PID (the crash case: no shutdown, nothing flushed to its replica that it had not sent yet)
 * and waits until one of its replicas is master of all its slots and every live node reports `cluster_state:ok`.
 *
 * @param cluster - the cluster
 * @param master - the master's process (e.g. from {@link masterOfSlot})
 * @param timeoutMs - how long the failover may take @defaultValue 30 000
 * @returns the promoted replica and how long the slots were down
 * @throws {@link RedisUnavailableError} when `master` is not a master with a replica, or no replica takes over in time
 */
export async function killMasterAndWaitForFailover(
  cluster: RedisClusterHandle,
  master: RedisServerHandle,
  timeoutMs = 30_000,
): Promise<FailoverResult> {
  const before = await clusterTopology(cluster);
  const entry = before.find((n) => n.port === master.port);
  if (!entry || entry.role !== 'master') throw new RedisUnavailableError(`node ${master.port} is not a master`);
  const replicaPorts = new Set(before.filter((n) => n.masterId === entry.id && !n.failed).map((n) => n.port));
  if (replicaPorts.size === 0) throw new RedisUnavailableError(`master ${master.port} has no replica to take over`);
  const killedAt = Date.now();
  await stopPid(master.pid, 'SIGKILL');
  const deadline = killedAt + timeoutMs;
  for (;;) {
    const promoted = await promotedReplica(cluster, entry, replicaPorts);
    if (promoted) return { promoted, downMs: Date.now() - killedAt };
    if (Date.now() > deadline) {
      throw new RedisUnavailableError(`no replica of ${master.port} took over its slots within ${timeoutMs} ms`);
    }
    await sleep(50);
  }
}

/** The replica serving all of `old`'s slots once every live node agrees (`cluster_state:ok`), else undefined. */
async function promotedReplica(
  cluster: RedisClusterHandle,
  old: ClusterNodeEntry,
  replicaPorts: Set<number>,
): Promise<RedisServerHandle | undefined> {
  try {
    const nodes = await clusterTopology(cluster);
    const candidate = nodes.find((n) => replicaPorts.has(n.port) && n.role === 'master' && !n.failed);
    if (!candidate) return undefined;
    const covers = old.slots.every(([a, b]) => candidate.slots.some(([x, y]) => x <= a && b <= y));
    if (!covers) return undefined;
    for (const server of cluster.servers) {
      if (!isAlive(server.pid)) continue;
      const info = String(await withNode(server.port, (c) => c.call('CLUSTER', 'INFO')));
      if (!/cluster_state:ok/.test(info)) return undefined;
    }
    return cluster.servers.find((s) => s.port === candidate.port);
  } catch {
    // A node may refuse or reset while the cluster changes its mind; ask again.
    return undefined;
  }
}
