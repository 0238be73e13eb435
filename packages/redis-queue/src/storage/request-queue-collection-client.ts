import { randomUUID } from 'node:crypto';
import type { RequestQueueCollectionClient, RequestQueueInfo } from '../core/crawlee-types.js';
import { listQueueNames } from '../core/queue-index.js';
import type { QueueContext } from '../queue/queue-context.js';
import { RedisRequestQueueClient } from './redis-request-queue-client.js';

/** Crawlee's `RequestQueueCollectionClient` over Redis: a named queue's id is its name, so every worker that opens
 * the same name gets the same queue without coordination. */
export class RedisRequestQueueCollectionClient implements RequestQueueCollectionClient {
  private readonly ctx: QueueContext;

  /** @param ctx - connection and settings shared by the storage client */
  constructor(ctx: QueueContext) {
    this.ctx = ctx;
  }

  /**
   * Lists the queues under the key prefix (reads the queue index; not meant for hot paths).
   *
   * @returns the queues' info
   */
  async list(): ReturnType<RequestQueueCollectionClient['list']> {
    const ids = await this.ctx.connection.run(() => listQueueNames(this.ctx.connection.redis, this.ctx.keyPrefix));
    const items: RequestQueueInfo[] = [];
    for (const id of ids) {
      const info = await new RedisRequestQueueClient(this.ctx, id, 'list').get();
      if (info) items.push(info);
    }
    return { total: items.length, count: items.length, offset: 0, limit: items.length, desc: false, items };
  }

  /**
   * Returns the queue `name`, creating it when missing (idempotent across processes). Without a name a new
   * unnamed queue with a random id is created.
   *
   * @param name - the queue name
   * @returns the queue info
   */
  async getOrCreate(name?: string): Promise<RequestQueueInfo> {
    const id = name ?? randomUUID();
    const client = new RedisRequestQueueClient(this.ctx, id, 'create');
    await client.ensureCreated(name);
    return (await client.get())!;
  }
}
