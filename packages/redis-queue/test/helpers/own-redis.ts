import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

/** A test file's own redis-server, for tests that wipe Redis (FLUSHALL) and so must never touch the shared one. */
export interface OwnRedis {
  /** The server's URL (after beforeAll). */
  readonly url: string;
  /** A plain connection for wiping and inspecting (after beforeAll). */
  readonly admin: Redis;
  /**
   * A queue client on its own storage client (worker stats off unless `options` say otherwise), the queue opened.
   * @param name - the queue name
   * @param options - storage client options
   * @param clientKey - the lock owner (default 'a')
   */
  open(this: void, name: string, options?: ConstructorParameters<typeof RedisStorageClient>[0], clientKey?: string): Promise<RedisRequestQueueClient>;
}

/** Starts the server in beforeAll and stops it, with every storage client opened through it, in afterAll. */
export function ownRedis(): OwnRedis {
  let server: RedisServerHandle | undefined;
  let admin: Redis | undefined;
  const storages: RedisStorageClient[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    for (const s of storages) await s.close();
    await admin?.quit();
    await server?.destroy();
  });
  return {
    get url() {
      return server!.url;
    },
    get admin() {
      return admin!;
    },
    async open(name, options = {}, clientKey = 'a') {
      const storage = new RedisStorageClient({ redis: server!.url, workerStats: false, ...options });
      storages.push(storage);
      await storage.requestQueues().getOrCreate(name);
      return storage.requestQueue(name, { clientKey }) as RedisRequestQueueClient;
    },
  };
}

/** What a promise rejected with, or undefined when it resolved. @param p - the promise */
export const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
