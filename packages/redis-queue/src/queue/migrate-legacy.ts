import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from 'crawlee';
import { MIGRATE_REPLY } from '../redis/reply-codes.js';
import type { QueueScripts } from './queue-scripts.js';

/** Options of {@link migrateLegacyQueue}. */
export interface MigrateLegacyOptions {
  /** Pending requests moved per script call, and data entries read per HSCAN. @defaultValue 1000 */
  batch?: number;
  /** Migration lock time in ms, renewed by every batch; a migrator silent this long is taken over.
   * @defaultValue 10000 */
  lockMs?: number;
  /** Wait between two looks while another worker migrates, in ms. @defaultValue 100 */
  waitMs?: number;
  /** Stop after this many batches (tests: a migrator killed between two batches). @defaultValue no limit */
  maxBatches?: number;
}

/**
 * Migrates a queue written by 0.1 (meta without `format`: JSON records, handled ones in `data`, the `pending` /
 * `avail` sorted sets) to format 2 in bounded batches (`migrate-legacy.lua`), or waits while another worker does.
 * Of several workers opening the queue at once exactly one holds the migration lock; the others wait and take over
 * when its lock expires (the migrator died), continuing from the progress stored in meta. O(queue) once, in
 * batches of `batch`; every batch is atomic, so a migrator killed at any moment loses and duplicates nothing.
 *
 * @param scripts - the queue's scripts
 * @param options - batch size, lock time, wait
 * @returns true when this call finished the migration (or found it done), false when it stopped at `maxBatches`
 */
export async function migrateLegacyQueue(scripts: QueueScripts, options: MigrateLegacyOptions = {}): Promise<boolean> {
  const { batch = 1000, lockMs = 10_000, waitMs = 100, maxBatches = Infinity } = options;
  const { keys, connection } = scripts;
  const token = randomUUID();
  const extraKeys = [keys.legacyPending, keys.legacyAvail, keys.migrationLock];
  const call = async (step: string, args: Array<string | Buffer> = []) => {
    const reply = (await scripts.run('migrateLegacy', [token, lockMs, batch, step, ...args], { extraKeys })) as unknown[];
    return { code: Number(reply[0]), step: String(reply[1]), cursor: String(reply[2]) };
  };
  let state = await call('');
  let batches = 0;
  let announced = false;
  while (state.code !== MIGRATE_REPLY.DONE) {
    if (state.code === MIGRATE_REPLY.BUSY) {
      await sleep(waitMs);
      state = await call('');
      continue;
    }
    if (!announced) {
      log.info(`crawlee-redis-queue: queue "${scripts.queueName}" was written by 0.1; migrating it to format 2 (in batches of ${batch})`);
      announced = true;
    }
    if (batches++ >= maxBatches) return false;
    if (state.step === 'handled') {
      // The walk over data runs here (scripts never scan); the script stores the next cursor with the batch.
      const [next, flat] = await connection.run(() => connection.redis.hscan(keys.data, state.cursor, 'COUNT', batch));
      const ids = flat.filter((_, i) => i % 2 === 0);
      state = await call('handled', [next, ...ids]);
    } else {
      state = await call('pending');
    }
  }
  if (announced) log.info(`crawlee-redis-queue: queue "${scripts.queueName}" migrated to format 2`);
  return true;
}
