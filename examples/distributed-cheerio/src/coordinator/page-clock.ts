/**
 * Watches the fleet's page counter (every 250 ms) to time the crawl itself: from the first page this run recorded to
 * the last, so worker start-up (loading Crawlee takes seconds on a busy machine) does not count against pages/s. The
 * counter is per queue: on a resume it starts at the earlier runs' pages, which are neither timed nor counted.
 */
export class PageClock {
  private timer: NodeJS.Timeout | undefined;
  private firstAt: number | undefined;
  private lastAt: number | undefined;
  /** The counter at the first reading (the earlier runs' pages on a resume); undefined before it. */
  private baseline: number | undefined;
  private lastPages = 0;
  private busy = false;

  constructor(private readonly readPages: () => Promise<number>) {}

  /** Takes the first reading (the baseline) now, then polls. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), 250);
  }

  /** Pages this run recorded: the last reading less the baseline. */
  get pages(): number {
    return this.baseline === undefined ? 0 : Math.max(0, this.lastPages - this.baseline);
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
      if (this.baseline === undefined) {
        this.baseline = pages;
        this.lastPages = pages;
        return;
      }
      if (pages > this.baseline && this.firstAt === undefined) this.firstAt = now;
      if (pages !== this.lastPages) this.lastAt = now;
      this.lastPages = pages;
    } catch {
      /* a missed reading only blurs the timing */
    } finally {
      this.busy = false;
    }
  }
}
