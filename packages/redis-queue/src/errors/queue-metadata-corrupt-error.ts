import { RedisQueueError } from './redis-queue-error.js';

/**
 * A numeric field of a queue's metadata hash (`{<prefix>:rq:<name>}:meta`: the counters `total`, `pending`,
 * `handled`, the shard layout, the politeness settings, the handled-store sizing) holds something that is not a
 * number: another program or a manual `HSET` wrote it. The queue cannot be read or changed until it is repaired,
 * because a wrong count would make workers finish early or never. Nothing was written. `key`, `field` and `value`
 * say what is wrong. Code `'QUEUE_METADATA_CORRUPT'`.
 */
export class QueueMetadataCorruptError extends RedisQueueError {
  /** The metadata hash. */
  readonly key: string;
  /** The field, e.g. `total`. */
  readonly field: string;
  /** What the field holds (at most 40 characters). */
  readonly value: string;

  /**
   * @param context - who read it, e.g. `request queue "crawl" get`
   * @param key - the metadata hash
   * @param field - the field
   * @param value - what it holds
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(context: string, key: string, field: string, value: string, options?: ErrorOptions) {
    super(
      'QUEUE_METADATA_CORRUPT',
      `${context}: field "${field}" of the queue's metadata ${key} holds ${JSON.stringify(value)}, not a number (another ` +
        `program or a manual HSET wrote it); nothing was written. Repair it with the value it should have, e.g. ` +
        `\`redis-cli HSET '${key}' ${field} <number>\` (${repairHint(field)}), or drop the queue ` +
        '(`crawlee-redis drop <queue>`) to start over.',
      options,
    );
    this.key = key;
    this.field = field;
    this.value = value;
  }
}

function repairHint(field: string): string {
  if (field === 'total' || field === 'pending' || field === 'handled') {
    return 'pending = requests not handled yet, handled = requests done, total = pending + handled; `crawlee-redis stats` shows the other two';
  }
  if (field === 'shards') return 'the shard count every client of the queue is opened with';
  if (field.startsWith('polite')) return 'politeMinDelayMs in ms, politeMaxConc a whole number, 0 = unlimited, as the workers are configured';
  return 'the value the queue was created with';
}
