import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** A rerun of a queue seeded from a served folder names another folder: its pending URLs point at the first one. */
export class ServedSiteMismatchError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param seededFrom - what the queue was seeded from (a folder, or `the generated demo site`)
   * @param now - what this run would serve
   */
  constructor(queueName: string, seededFrom: string, now: string) {
    super(
      'E_SERVED_SITE_MISMATCH',
      `queue ${queueName} was seeded from ${seededFrom}, but this run would serve ${now}: its pending requests point at ` +
        `the first site. Resume with the same source (${seededFrom === 'the generated demo site' ? '--demo' : `--site ${seededFrom}`}), or pick a new --queue.`,
    );
  }
}
