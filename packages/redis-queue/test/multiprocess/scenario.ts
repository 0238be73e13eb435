// Shared setup of the multi-process scenarios: a fresh queue under a random key prefix, an admin for it, a fleet.
import { randomUUID } from 'node:crypto';
import { RedisQueueAdmin, type RedisQueueStats } from '../../src/index.js';
import { Fleet, type WorkerConfig } from './fleet.js';

/** The size of Crawlee's e2e graph (request i adds i+1, i+2, 2i). */
export const MAX = 1000;

export interface Scenario {
  fleet: Fleet;
  admin: RedisQueueAdmin;
  config: WorkerConfig;
  /** Drops the queue, closes the admin, kills leftover workers; keeps the result files when the test failed. */
  cleanup(failed: boolean): Promise<void>;
}

export function createScenario(redisUrl: string, overrides: Partial<WorkerConfig> = {}): Scenario {
  const config: WorkerConfig = {
    redisUrl,
    keyPrefix: `mp-${randomUUID()}`,
    queueName: 'graph',
    max: MAX,
    handlerMs: 10,
    concurrency: 3,
    handlerTimeoutSecs: 30,
    lockSecs: 10,
    ...overrides,
  };
  const fleet = new Fleet(config);
  const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix: config.keyPrefix, name: config.queueName });
  return {
    fleet,
    admin,
    config,
    async cleanup(failed) {
      await fleet.destroy(failed);
      if (failed) console.error(`multi-process result files kept in ${fleet.dir}`);
      try {
        await admin.dropHashTag(); // worker stats keys too
      } finally {
        await admin.close();
      }
    },
  };
}

/** The queue's final state when all MAX requests were handled and nothing is left. */
export const DONE_STATS: RedisQueueStats = { total: MAX, pending: 0, locked: 0, handled: MAX, deadLetters: 0 };
