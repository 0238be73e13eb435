/** `crawlee-redis takeover --from KEY` found no key KEY: there is no scrapy-redis frontier to move (the spider name
 * or `SCHEDULER_QUEUE_KEY` is wrong, the key prefix differs, or a previous takeover already moved all of it).
 * Exit code 1; no queue was created. */
export class TakeoverSourceMissingError extends Error {
  /** The key given with `--from`. */
  readonly key: string;

  /** @param key - the key given with `--from` (shown masked by the CLI like every line) */
  constructor(key: string) {
    super(
      `nothing to take over: key ${key} does not exist (check the spider name / SCHEDULER_QUEUE_KEY, e.g. myspider:requests, ` +
        'and the --redis URL; a finished takeover leaves no key behind). No queue was created.',
    );
    this.name = 'TakeoverSourceMissingError';
    this.key = key;
  }
}
