/**
 * Watches the fleet's page counter (every 250 ms) to time the crawl itself: from the first page recorded to the last,
 * so worker start-up (loading Crawlee takes seconds on a busy machine) does not count against pages/s.
 */
export class PageClock {
  private timer: NodeJS.Timeout | undefined;
  private firstAt: number | undefined;
  private lastAt: number | undefined;
  private lastPages = 0;
  private busy = false;

  constructor(private readonly readPages: () => Promise<number>) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), 250);
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.poll();
  }

  /** Seconds from the first page to the last one seen (at least one poll interval once any page was seen). */
  get crawlSecs(): number {
    if (this.firstAt === undefined || this.lastAt === undefined) return 0;
    return Math.max(0.25, (this.lastAt - this.firstAt) / 1000 + 0.25);
  }

  private async poll(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const pages = await this.readPages();
      const now = Date.now();
      if (pages > 0 && this.firstAt === undefined) this.firstAt = now;
      if (pages !== this.lastPages) this.lastAt = now;
      this.lastPages = pages;
    } catch {
      /* a missed reading only blurs the timing */
    } finally {
      this.busy = false;
    }
  }
}
