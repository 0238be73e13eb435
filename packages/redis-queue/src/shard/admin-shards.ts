import type { ConnectionHandle } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { readShardLayout } from './shard-layout.js';
import { allShardKeys } from './shard-keys.js';
import type { ShardBy } from './shard-of.js';

/**
 * The per-shard admins of a sharded queue, found from the layout recorded in the root metadata (read on each call
 * until the queue is found sharded, then kept: a layout never changes). The admin of one shard has none.
 */
export class AdminShards<A> {
  private found?: { parts: A[]; shardBy: ShardBy };

  /**
   * @param connection - the admin's connection
   * @param keyPrefix - the key prefix
   * @param name - the queue name
   * @param isRoot - false for the admin of one shard
   * @param make - makes the admin of one shard's keys
   */
  constructor(
    private readonly connection: ConnectionHandle,
    private readonly keyPrefix: string,
    private readonly name: string,
    private readonly isRoot: boolean,
    private readonly make: (keys: QueueKeys) => A,
  ) {}

  /** @returns the shards' admins and rule, or undefined for an unsharded queue */
  async layout(): Promise<{ parts: A[]; shardBy: ShardBy } | undefined> {
    if (this.found || !this.isRoot) return this.found;
    const layout = await this.connection.run(() => readShardLayout(this.connection.redis, this.keyPrefix, this.name));
    if (layout.shards <= 1) return undefined;
    this.found = { parts: allShardKeys(this.keyPrefix, this.name, layout.shards).map(this.make), shardBy: layout.shardBy };
    return this.found;
  }

  /** Runs `op` (close) on the shards' admins made so far. @param op - the operation */
  async closeFound(op: (shard: A) => Promise<void>): Promise<void> {
    if (this.found) await Promise.all(this.found.parts.map(op));
  }

  /** Runs `op` on every shard's admin. @param op - the operation @returns the answers, or undefined when unsharded */
  async over<T>(op: (shard: A) => Promise<T>): Promise<T[] | undefined> {
    const found = await this.layout();
    return found && Promise.all(found.parts.map(op));
  }
}
