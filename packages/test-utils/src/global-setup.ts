import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { redisUrlForTests, stopTestRedis } from './redis-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis every test file uses (see `redisUrlForTests`). */
    redisUrl: string;
  }
}

/**
 * Vitest globalSetup: resolves the tests' Redis once and provides it as `inject('redisUrl')`.
 * A missing Redis fails the run with install instructions; it is never a silent skip.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = await redisUrlForTests();
  process.env.REDIS_URL_FOR_TESTS = url;
  project.provide('redisUrl', url);
  return stopTestRedis;
}
