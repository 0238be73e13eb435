import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster, Redis } from 'ioredis';
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis5';
import type { RedisConnection } from '../../src/core/connection.js';

/** A way to reach a real Redis: a connection flavour and, for a Cluster, the servers behind it. */
export interface TestBackend {
  readonly label: string;
  readonly isCluster: boolean;
  /** A new connection (the caller closes it with {@link closeConnection}). */
  connect(): RedisConnection;
  /** Stops servers this backend started. */
  stop(): Promise<void>;
}

/** Every connection flavour the contract suite runs against. */
export type BackendKind = 'ioredis6-resp3' | 'ioredis6-resp2' | 'ioredis5' | 'cluster-ioredis6' | 'cluster-ioredis5';

function standalone(label: string, url: string, make: (url: string) => unknown): TestBackend {
  return { label, isCluster: false, connect: () => make(url) as RedisConnection, stop: () => Promise.resolve() };
}

/**
 * Creates a backend on the tests' Redis (standalone) or on a fresh local 3-master cluster.
 *
 * @param kind - connection flavour
 * @param url - the tests' Redis URL (`inject('redisUrl')`)
 */
export async function createBackend(kind: BackendKind, url: string): Promise<TestBackend> {
  switch (kind) {
    case 'ioredis6-resp3':
      return standalone(kind, url, (u) => new Redis(u));
    case 'ioredis6-resp2':
      return standalone(kind, url, (u) => new Redis(u, { protocol: 2 }));
    case 'ioredis5':
      return standalone(kind, url, (u) => new Redis5(u));
    case 'cluster-ioredis6':
    case 'cluster-ioredis5': {
      const cluster: RedisClusterHandle = await startRedisCluster({ masters: 3 });
      const make = kind === 'cluster-ioredis6'
        ? () => new Cluster(cluster.nodes)
        : () => new Cluster5(cluster.nodes);
      return { label: kind, isCluster: true, connect: () => make() as unknown as RedisConnection, stop: () => cluster.stop() };
    }
  }
}

/** Closes a test connection. @param redis - the connection */
export async function closeConnection(redis: RedisConnection): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
