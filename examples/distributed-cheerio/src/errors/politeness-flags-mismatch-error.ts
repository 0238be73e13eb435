import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * A rerun or `--join` of a queue names other politeness flags than the queue was created with. The queue fixes its
 * politeness when it is created (every worker must schedule hosts the same way), so the run is refused before
 * anything starts.
 */
export class PolitenessFlagsMismatchError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param created - the queue's flags, e.g. `--host-delay-secs 1 --max-per-host 2`, or `no politeness`
   * @param given - this run's flags in the same form
   */
  constructor(queueName: string, created: string, given: string) {
    super(
      'E_POLITENESS_FLAGS_MISMATCH',
      `queue ${queueName} was created with ${created}, this run asks for ${given}: every worker of a queue uses the ` +
        'politeness it was created with. Leave out --host-delay-secs and --max-per-host (the run takes the queue\'s), ' +
        'or pick a new --queue to crawl with other limits.',
    );
  }
}
