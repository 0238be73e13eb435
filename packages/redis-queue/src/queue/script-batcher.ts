import { setImmediate } from 'node:timers';

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Merges the calls one queue client makes in one event-loop turn (or, while its previous script call is still
 * in flight, until that call's reply) into one script call. Crawlee's RequestQueue
 * prolongs and marks handled one request per call, from many concurrent tasks; one Lua script per batch instead of
 * one per request is what lets Redis keep up with several workers (each script call has a fixed cost on the server,
 * and on the client one command, promise and reply each).
 *
 * Every item still gets its own result, or its own error when the script reports one for it; an error of the whole
 * call (connection, script) rejects every item of the batch. Items are sent in call order. To keep call order with
 * other operations, the owner sends a batch early ({@link ScriptBatcher.flushNow}) before any other command, and
 * before a call of another kind on a request this batch holds ({@link ScriptBatcher.holds}).
 */
export class ScriptBatcher<Item, Result> {
  private waiting: Array<Waiting<Item, Result>> = [];
  private readonly keys = new Set<string>();
  private scheduled = false;
  /** Script calls of this batcher sent and not answered yet. */
  private inFlight = 0;

  /**
   * @param run - sends one batch; resolves with one result per item, in order (an `Error` result rejects that item)
   * @param maxItems - items per script call; a full batch is sent at once
   * @param keyOf - the request an item is about (for {@link ScriptBatcher.holds})
   */
  constructor(
    private readonly run: (items: Item[]) => Promise<Array<Result | Error>>,
    private readonly maxItems: number,
    private readonly keyOf: (item: Item) => string,
  ) {}

  /** True when an item about `key` waits in the batch not sent yet. @param key - a request id */
  holds(key: string): boolean {
    return this.keys.has(key);
  }

  /**
   * Queues one item for the batch of this event-loop turn.
   *
   * @param item - the item
   * @returns its result
   */
  call(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.keys.add(this.keyOf(item));
      if (this.waiting.length >= this.maxItems) this.flushNow();
      else if (!this.scheduled && this.inFlight === 0) {
        this.scheduled = true;
        // setImmediate, not a microtask: the other tasks' calls of this turn arrive through their own promise
        // chains, all of which run before the check phase.
        setImmediate(() => {
          this.scheduled = false;
          this.flushNow();
        });
      }
    });
  }

  /** Sends the waiting items now (nothing when none wait). Commands on one connection keep their order, so whatever
   * the caller sends next reaches Redis after this batch. */
  flushNow(): void {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.keys.clear();
    this.inFlight += 1;
    this.run(batch.map((w) => w.item)).then(
      (results) => {
        this.afterCall();
        batch.forEach((w, i) => {
          const result = results[i];
          if (result instanceof Error) w.reject(result);
          else w.resolve(result as Result);
        });
      },
      (error: unknown) => {
        this.afterCall();
        for (const w of batch) w.reject(error);
      },
    );
  }

  /**
   * A call came back: the items that arrived while it was in flight go now, together (one script call for all of
   * them instead of one per event-loop turn; the first call of a quiet period still goes out in its own turn).
   */
  private afterCall(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0 && this.waiting.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flushNow();
      });
    }
  }
}
