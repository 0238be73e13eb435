import { appendFileSync } from 'node:fs';

/** One request the site answered. */
export interface AccessLogEntry {
  method: string;
  /** The request target as received: path and query (an HTTP client never sends the fragment). */
  path: string;
  /** Milliseconds since the epoch, when the request arrived. */
  time: number;
  /** The User-Agent header: `scrapy-fleet/<worker>` or `crawlee-fleet/<worker>` tells the fleet and process. */
  userAgent: string;
  status: number;
}

/** Which fleet a user agent belongs to, from the `<fleet>-fleet/<worker>` convention of the harness. */
export function fleetOf(userAgent: string): 'scrapy' | 'crawlee' | 'unknown' {
  if (userAgent.startsWith('scrapy-fleet/')) return 'scrapy';
  if (userAgent.startsWith('crawlee-fleet/')) return 'crawlee';
  return 'unknown';
}

/** The access log: kept in memory for the test, and appended to a JSON Lines file when a path is given. */
export class AccessLog {
  readonly entries: AccessLogEntry[] = [];

  /** @param file - JSON Lines file to append every entry to (optional) */
  constructor(readonly file?: string) {}

  /** Records one entry. */
  record(entry: AccessLogEntry): void {
    this.entries.push(entry);
    if (this.file) appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }

  /** The entries of one fleet. */
  byFleet(fleet: 'scrapy' | 'crawlee'): AccessLogEntry[] {
    return this.entries.filter((e) => fleetOf(e.userAgent) === fleet);
  }
}
