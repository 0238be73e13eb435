/** At most this many ids are remembered; the oldest is forgotten first (a forgotten id costs one pipelined ask of
 * every shard, never a wrong answer). */
const LIMIT = 200_000;

/**
 * The shard of each request id this client added or locked: ids are Crawlee's hash of the uniqueKey, so the shard
 * of an id alone cannot be computed (`getRequest(id)`, `prolongRequestLock(id)`, `deleteRequestLock(id)`).
 */
export class ShardMemory {
  private readonly byId = new Map<string, number>();

  /** @param id - request id @param shard - its shard */
  remember(id: string, shard: number): void {
    if (this.byId.size >= LIMIT && !this.byId.has(id)) {
      const oldest = this.byId.keys().next().value;
      if (oldest !== undefined) this.byId.delete(oldest);
    }
    this.byId.set(id, shard);
  }

  /** @param id - request id @returns its shard, or undefined when unknown */
  shardOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** @param id - request id */
  forget(id: string): void {
    this.byId.delete(id);
  }
}
