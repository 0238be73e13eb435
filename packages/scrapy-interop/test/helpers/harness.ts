import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import {
  checkScrapy,
  fetchesByIdentity,
  spawnCrawlee,
  spawnScrapy,
  type AccessLogEntry,
  type FleetProcess,
  type ScrapySetup,
  type SpawnScrapyOptions,
  type WorkerOptions,
} from '../../src/index.js';

/**
 * One interop suite: a redis-server of its own (started and stopped by PID through test-utils), the checked Scrapy
 * installation, a log folder, and every process a test starts (stopped by PID after each test).
 */
export class Harness {
  setup!: ScrapySetup;
  server!: RedisServerHandle;
  redis!: Redis;
  readonly logDir = mkdtempSync(join(tmpdir(), 'scrapy-interop-logs-'));
  private readonly processes: FleetProcess[] = [];

  /** beforeAll: fails (never skips) when Scrapy, redis-py or the vendored scrapy-redis is missing. */
  async start(): Promise<void> {
    this.setup = checkScrapy();
    this.server = await startRedisServer();
    this.redis = new Redis(this.server.url, { maxRetriesPerRequest: 1 });
  }

  /** afterEach: every process still running is stopped by its PID. */
  async stopProcesses(): Promise<void> {
    await Promise.all(this.processes.splice(0).map((p) => p.stop()));
  }

  /** afterAll. */
  async stop(): Promise<void> {
    await this.stopProcesses();
    this.redis?.disconnect();
    await this.server?.destroy();
  }

  /** A random name, so no two tests (or runs) share keys. */
  name(prefix: string): string {
    return `${prefix}-${randomUUID().slice(0, 8)}`;
  }

  scrapy(options: Omit<SpawnScrapyOptions, 'setup' | 'redisUrl' | 'logFile'>): FleetProcess {
    const p = spawnScrapy({
      ...options,
      setup: this.setup,
      redisUrl: this.server.url,
      logFile: join(this.logDir, `scrapy-${options.worker}.log`),
    });
    this.processes.push(p);
    return p;
  }

  crawlee(
    options: Partial<WorkerOptions> & Pick<WorkerOptions, 'queue' | 'spider' | 'worker'>,
  ): FleetProcess {
    const p = spawnCrawlee(
      { ...options, redisUrl: this.server.url },
      join(this.logDir, `crawlee-${options.worker}.log`),
    );
    this.processes.push(p);
    return p;
  }
}

/** Identities fetched more than once, with who fetched them (for failure messages). */
export function duplicates(entries: readonly AccessLogEntry[], origin: string): string[] {
  return [...fetchesByIdentity(entries, origin).values()]
    .filter((list) => list.length > 1)
    .map((list) => list.map((e) => `${e.userAgent} ${e.path}`).join(' | '));
}

/** Waits until `check()` is true, polling every 50 ms; throws after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
