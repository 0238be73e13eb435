/**
 * Tells a worker process that its coordinator is gone, so it stops instead of crawling a dead site for nobody:
 * the IPC channel closes the moment the coordinator dies (even by SIGKILL), and the parent pid changes when the
 * worker is re-parented (a worker started without IPC).
 */
export class CoordinatorWatch {
  private gone = false;
  private readonly waiters = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  /** @param onGone - called once, when the coordinator is found gone */
  constructor(private readonly onGone: () => void) {
    const parent = process.ppid;
    process.once('disconnect', () => this.mark());
    this.timer = setInterval(() => {
      if (process.ppid !== parent) this.mark();
    }, 500);
    this.timer.unref();
  }

  /** True once the coordinator is gone. */
  get isGone(): boolean {
    return this.gone;
  }

  /**
   * Waits up to `ms` for the coordinator to be found gone: a fetch refused by the site the coordinator serves may
   * arrive a moment before the IPC channel reports the death.
   *
   * @returns true when it is gone
   */
  async goneWithin(ms: number): Promise<boolean> {
    if (this.gone) return true;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(this.gone);
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private mark(): void {
    if (this.gone) return;
    this.gone = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    for (const waiter of [...this.waiters]) waiter();
    this.onGone();
  }
}
