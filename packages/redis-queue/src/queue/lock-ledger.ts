/** A request as decoded from Redis. */
export type StoredRequest = Record<string, unknown> & { id: string; url: string; uniqueKey: string };

/** A lock taken by this client's last listAndLockHead calls (for the `fastProlong` option). */
export interface FreshLock {
  /** Local monotonic time of the lock (`performance.now()`). */
  lockedAt: number;
  /** The lock time Crawlee asked for, in ms. */
  lockMs: number;
  /** The lock's expiry in Redis, in ms (Redis time). */
  expiresAt: number;
  /** Lock time added at lock time for the prolong Crawlee makes next (ms; 0 when none was added). */
  appliedMs: number;
}

/** Entries kept per cache before it is cleared (a bound, not an LRU: the caches only save round trips). */
const CACHE_LIMIT = 2000;

/**
 * What one queue client remembers about the locks it took, and the one place that decides when each memory is
 * forgotten. Three maps:
 * - `held`: ids this client locked and has not handled, reclaimed or released (with their uniqueKeys), for
 *   `releaseLocks` and to skip the id hash on the update of one of them;
 * - `locked`: the request JSON `listAndLockHead` returned, for the one `getRequest` Crawlee makes next;
 * - `fresh`: lock time and Redis-time expiry of the last locks, for `fastProlong`.
 * None of them is a source of truth: Redis is; a miss only costs a round trip.
 */
export class LockLedger {
  private readonly held = new Map<string, string>();
  private readonly locked = new Map<string, StoredRequest>();
  private readonly fresh = new Map<string, FreshLock>();
  /** Held ids whose lock was prolonged: requests being processed (the heartbeat keeps their locks). */
  private readonly started = new Set<string>();

  /** True while this client processes at least one request it holds (its lock was prolonged). */
  get processing(): boolean {
    return this.started.size > 0;
  }

  /** The lock of a held request was prolonged: Crawlee started it. @param id - request id */
  markStarted(id: string): void {
    if (this.held.has(id)) this.started.add(id);
  }

  /** Ids held by this client, to uniqueKeys (for `encodeRequest`'s known ids). */
  get heldUniqueKeys(): ReadonlyMap<string, string> {
    return this.held;
  }

  /**
   * A lock was taken by `listAndLockHead`.
   * @param request - the decoded request
   * @param cacheRequest - keep its JSON for the next `getRequest`
   * @param fresh - lock facts for `fastProlong`, when enabled
   */
  recordLock(request: StoredRequest, cacheRequest: boolean, fresh?: FreshLock): void {
    this.held.set(request.id, request.uniqueKey);
    if (cacheRequest) {
      if (this.locked.size >= CACHE_LIMIT) this.locked.clear();
      this.locked.set(request.id, request);
    }
    if (fresh) {
      if (this.fresh.size >= CACHE_LIMIT) this.fresh.clear();
      this.fresh.set(request.id, fresh);
    }
  }

  /** The cached JSON of a freshly locked request, served once. @param id - request id */
  takeLockedRequest(id: string): StoredRequest | undefined {
    const request = this.locked.get(id);
    if (request !== undefined) this.locked.delete(id);
    return request;
  }

  /** The fresh-lock facts of a request, read once (the first prolong after the lock is the only one they
   * answer). @param id - request id */
  takeFresh(id: string): FreshLock | undefined {
    const fresh = this.fresh.get(id);
    this.fresh.delete(id);
    return fresh;
  }

  /** The request was handled, reclaimed or released by this client, or lost to another: forget it entirely.
   * @param id - request id */
  forget(id: string): void {
    this.held.delete(id);
    this.started.delete(id);
    this.locked.delete(id);
    this.fresh.delete(id);
  }

  /** The request was deleted or dead-lettered: nothing cached may answer for it. @param id - request id */
  dropCached(id: string): void {
    this.locked.delete(id);
    this.fresh.delete(id);
  }

  /** The queue was deleted: every cached request is gone. */
  dropAllCached(): void {
    this.locked.clear();
  }

  /** Forgets every lock and returns the ids that were held (for `releaseLocks`). */
  releaseAll(): string[] {
    const ids = [...this.held.keys()];
    this.held.clear();
    this.started.clear();
    this.locked.clear();
    this.fresh.clear();
    return ids;
  }
}
