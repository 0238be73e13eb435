/** Ids remembered at most; Crawlee keeps 25 + 1 in its head, so more means ids it dropped without a call. */
const MAX_IDS = 1000;

/**
 * The requests this client locked and handed to Crawlee that Crawlee has not started yet (no prolong, read, update
 * or release of them since). Crawlee's RequestQueueV2 locks ahead: with one request left in its head it calls
 * `listAndLockHead` again before it hands that request to the crawler. A polite lock call must not wait for the
 * next host then, or the request already locked waits with it (up to the host wait, 2 s by default); it waits only
 * when nothing is locked ahead. An entry counts until its lock would have expired.
 */
export class LockedAhead {
  private readonly until = new Map<string, number>();

  /** Remembers ids just locked for `lockSecs` seconds. */
  add(ids: Iterable<string>, lockSecs: number): void {
    const until = performance.now() + lockSecs * 1000;
    for (const id of ids) {
      this.until.delete(id);
      this.until.set(id, until);
      if (this.until.size > MAX_IDS) this.until.delete(this.until.keys().next().value!);
    }
  }

  /** Crawlee started, finished or gave up request `id`. */
  started(id: string): void {
    this.until.delete(id);
  }

  /** Forgets every id (the client released all its locks). */
  clear(): void {
    this.until.clear();
  }

  /** Whether a request locked by this client waits for Crawlee to start it. */
  any(): boolean {
    const now = performance.now();
    for (const [id, until] of this.until) {
      if (until > now) return true;
      this.until.delete(id);
    }
    return false;
  }
}
