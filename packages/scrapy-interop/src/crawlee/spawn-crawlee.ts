import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FleetProcess } from '../process/fleet-process.js';
import type { WorkerOptions } from './worker-options.js';

/** The built worker entry (`npm run build` makes it; the tests run what users would run). */
export function crawleeWorkerEntry(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'dist', 'crawlee-worker.js');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) {
      throw new Error(
        'dist/crawlee-worker.js not found: build first (npx turbo run build --filter=@crawlee-distributed/scrapy-interop...)',
      );
    }
  }
}

/** Starts one Crawlee worker process (`node dist/crawlee-worker.js ...`); it prints `ready` once its queue is open. */
export function spawnCrawlee(
  options: Partial<WorkerOptions> & Pick<WorkerOptions, 'redisUrl' | 'queue' | 'spider' | 'worker'>,
  logFile?: string,
): FleetProcess {
  const args = [
    crawleeWorkerEntry(),
    '--redis-url',
    options.redisUrl,
    '--queue',
    options.queue,
    '--spider',
    options.spider,
    '--worker',
    options.worker,
  ];
  for (const url of options.startUrl ?? []) args.push('--start-url', url);
  if (options.keyPrefix) args.push('--key-prefix', options.keyPrefix);
  if (options.feedKey) args.push('--feed-key', options.feedKey);
  if (options.feedBatch) args.push('--feed-batch', String(options.feedBatch));
  if (options.concurrency) args.push('--concurrency', String(options.concurrency));
  if (options.idleSecs) args.push('--idle-secs', String(options.idleSecs));
  return new FleetProcess(`crawlee ${options.worker}`, process.execPath, args, {
    env: { ...process.env, CRAWLEE_LOG_LEVEL: process.env['CRAWLEE_LOG_LEVEL'] ?? 'WARNING' },
    logFile,
  });
}
