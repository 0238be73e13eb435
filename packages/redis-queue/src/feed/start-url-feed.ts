import type { ListAndLockHeadResult } from '../crawlee-types.js';
import type { AddPath } from '../queue/add-path.js';
import type { StartUrlFeedSettings } from '../queue/queue-context.js';
import type { QueueScripts } from '../queue/queue-scripts.js';
import { checkStartUrlFeed, drainStartUrls } from './drain-start-urls.js';
import { FeedIdleWindow } from './feed-idle-window.js';
import { FeedTypeWarnings } from './feed-type-warnings.js';

/**
 * The start-URL feed of one queue client: when `listAndLockHead` found nothing available, drain one feed batch and
 * lock again; while the feed stays empty for less than `maxIdleSecs`, report `queueHasLockedRequests` so Crawlee
 * does not finish yet.
 */
export class StartUrlFeed {
  private readonly idle: FeedIdleWindow;
  private readonly warnings = new FeedTypeWarnings();

  /**
   * @param scripts - the queue's scripts
   * @param addPath - the queue's add path
   * @param settings - the feed settings
   * @param clockOffsetMs - added to Redis time (tests only)
   */
  constructor(
    private readonly scripts: QueueScripts,
    private readonly addPath: AddPath,
    private readonly settings: StartUrlFeedSettings,
    clockOffsetMs: () => number,
  ) {
    this.idle = new FeedIdleWindow(scripts.connection, settings.maxIdleSecs * 1000, clockOffsetMs);
  }

  /** Checks the feed keys' types. @throws {@link StartUrlFeedTypeError} */
  check(): Promise<void> {
    return checkStartUrlFeed(this.scripts, this.settings);
  }

  /**
   * @param result - what `listAndLockHead` returned
   * @param lockAgain - runs `listAndLockHead` again
   * @returns the result to give Crawlee; a feed key of a type the feed cannot read is skipped with one warning per
   *   key and type change (never thrown here: the queue keeps being served)
   */
  async fill(result: ListAndLockHeadResult, lockAgain: () => Promise<ListAndLockHeadResult>): Promise<ListAndLockHeadResult> {
    if (result.items.length > 0) {
      this.idle.busy();
      return result;
    }
    const moved = await drainStartUrls(this.scripts, this.addPath, this.settings, this.warnings);
    let next = result;
    if (moved > 0) {
      this.idle.busy();
      next = await lockAgain();
    }
    if (next.items.length === 0 && !next.queueHasLockedRequests && (await this.idle.isOpen())) return { ...next, queueHasLockedRequests: true };
    return next;
  }
}
