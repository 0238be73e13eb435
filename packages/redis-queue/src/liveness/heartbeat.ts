import { log } from 'crawlee';
import type { ConnectionHandle } from '../core/connection.js';
import { runScript } from '../core/scripts.js';
import type { LivenessSettings } from './liveness-options.js';

/** What one heartbeat needs from its queue client. */
export interface HeartbeatSource {
  readonly connection: ConnectionHandle;
  /** The queue's (or shard's) `live` key. */
  readonly liveKey: string;
  /** The lock owner. */
  readonly clientKey: string;
  /** For messages. */
  readonly queueName: string;
  /** The clock offset argument of the scripts (tests only). */
  readonly offset: () => string;
  /** Whether the client still has locks worth keeping (see {@link Heartbeat}). */
  readonly wantsBeat: () => boolean;
}

/**
 * The heartbeat of one queue client (worker liveness, docs/liveness.md): while the client has locks worth keeping, an
 * unref'd timer writes `now + windowMs` (Redis time) for its lock owner every `heartbeatMs`, one small script
 * (`lua/heartbeat.lua`), never on the request path, and never keeping the process alive. The lock scripts keep a live
 * owner's locks however long it works on them, and return a gone owner's locks one window after its last beat.
 *
 * A beat that finds its previous expiry already passed means this worker was silent past the window (its event loop
 * blocked, or Redis out of reach): its locks may have returned to other workers, which then fetch those requests a
 * second time (a refetch, never a loss). Each such lapse is counted ({@link Heartbeat.lapses}) and logged.
 */
export class Heartbeat {
  /** Beats that found this owner's previous heartbeat expired (the worker was silent past the window). */
  lapses = 0;
  private timer: NodeJS.Timeout | undefined;
  private sending = false;
  private everBeat = false;
  /** Local monotonic time (`performance.now()`) at which the last acknowledged beat was sent. */
  private ackedSentAt = Number.NEGATIVE_INFINITY;

  /**
   * @param source - connection, key, owner, and whether to beat
   * @param settings - interval and window
   * @param onStart - told once, when the timer starts (the storage client stops every started heartbeat on close)
   */
  constructor(
    private readonly source: HeartbeatSource,
    readonly settings: LivenessSettings,
    private readonly onStart: (heartbeat: Heartbeat) => void = () => {},
  ) {}

  /** True once the timer runs. */
  get started(): boolean {
    return this.timer !== undefined;
  }

  /** Starts the timer (idempotent) and beats at once: called when the client took locks. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.source.wantsBeat()) void this.beat();
    }, this.settings.heartbeatMs);
    this.timer.unref();
    this.onStart(this);
    void this.beat();
  }

  /** Stops the timer; the owner's entry expires one window after its last beat. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * True when a beat sent less than half a window ago was acknowledged: this client's locks cannot have returned to
   * anyone since (used by `fastProlong`'s local answer).
   */
  healthy(): boolean {
    return performance.now() - this.ackedSentAt < this.settings.windowMs / 2;
  }

  /** Writes one heartbeat now (skipped while the previous one is still on its way). Never throws. */
  async beat(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    const sentAt = performance.now();
    const { connection, liveKey, clientKey } = this.source;
    try {
      const reply = (await connection.run(() =>
        runScript(connection.redis, 'heartbeat', [liveKey], [clientKey, this.settings.windowMs, this.source.offset()]),
      )) as [number, number];
      const [now, previous] = reply.map(Number) as [number, number];
      if (this.everBeat && (previous < 0 || previous < now)) this.lapse(now - previous);
      this.everBeat = true;
      this.ackedSentAt = sentAt;
    } catch (error) {
      log.debug(`crawlee-redis-queue: heartbeat of queue "${this.source.queueName}" failed`, { error: String(error) });
    } finally {
      this.sending = false;
    }
  }

  private lapse(lateMs: number): void {
    this.lapses++;
    const late = lateMs > 0 && Number.isFinite(lateMs) && lateMs < 1e9 ? ` ${(lateMs / 1000).toFixed(1)} s` : '';
    log.warning(
      `crawlee-redis-queue: this worker's heartbeat on queue "${this.source.queueName}" lapsed${late} past its ${this.settings.windowMs / 1000} s ` +
        'liveness window (its event loop was blocked, or Redis was out of reach): the locks it held may have returned to other workers, which ' +
        'fetch those requests again (a refetch, not a loss). Keep CPU-heavy work off the event loop, or raise liveness.windowSecs',
    );
  }
}
