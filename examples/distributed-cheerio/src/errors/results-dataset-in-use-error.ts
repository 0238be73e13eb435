import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** `--results redis` on a new queue whose name a Redis dataset with records already carries (the results of an
 * earlier queue of that name, dropped since): they would be merged into this crawl's output. Exit code 1. */
export class ResultsDatasetInUseError extends DistributedCheerioError {
  /**
   * @param name - the queue (= dataset) name
   * @param records - records in the dataset
   * @param keyPrefix - the key prefix
   */
  constructor(name: string, records: number, keyPrefix: string) {
    const prefix = keyPrefix === 'crawlee' ? '' : ` --key-prefix ${keyPrefix}`;
    super(
      'E_RESULTS_DATASET_IN_USE',
      `the Redis dataset "${name}" already holds ${records} record(s) of an earlier crawl of a queue with that name, and ` +
        `--results redis would merge them into this one. Export them (npx crawlee-redis export ${name}${prefix} --output old.jsonl), ` +
        `then delete the dataset's keys (redis-cli del "{${keyPrefix}:ds:${name}}:items" "{${keyPrefix}:ds:${name}}:meta"), or use another --queue.`,
    );
  }
}
