import { createRequire } from 'node:module';

/** The part of Crawlee's `log` (an `@apify/log` instance) the hooks use. */
interface DebugLog {
  debug(message: string, data?: Record<string, unknown>): void;
}

let resolved: DebugLog | null | undefined;

/**
 * Crawlee's `log`, loaded on first use: `crawlee` is an optional peer dependency, so importing it at the top would make
 * the fingerprint functions need it too. Requiring `crawlee` gives the same `log` object as an ESM import of it does
 * (Crawlee's ESM entry re-exports its CommonJS build), so the user's `log.setLevel` applies here.
 * @returns the log, or `null` when Crawlee is not installed
 */
export function crawleeLog(): DebugLog | null {
  if (resolved === undefined) {
    try {
      resolved = (createRequire(import.meta.url)('crawlee') as { log: DebugLog }).log;
    } catch {
      resolved = null;
    }
  }
  return resolved;
}
