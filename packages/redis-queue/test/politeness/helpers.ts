// Shared helpers of the politeness tests: requests on several hosts and the politeness keys of a world's queue.
import type { RequestSchema } from '../../src/core/crawlee-types.js';
import type { QueueWorld } from '../helpers/world.js';

/** A request on host `host` (e.g. 'a.test'), uniqueKey = url.
 * @param host - host name (with :port if wanted)
 * @param path - path segment
 * @param extra - more fields */
export function hreq(host: string, path: string | number, extra: Record<string, unknown> = {}): RequestSchema {
  const url = `http://${host}/${path}`;
  return { url, uniqueKey: url, method: 'GET', userData: {}, ...extra };
}

/** `host/path` of head items, for compact assertions. @param items - head items */
export function hp(items: Array<{ url: string }>): string[] {
  return items.map((item) => item.url.slice('http://'.length));
}

/** The politeness keys of a world's queue (see src/lua/includes/polite.lua). @param world - the test world */
export function politeKeys(world: QueueWorld) {
  const p = `{${world.keyPrefix}:rq:${world.name}}:p:`;
  return { hosts: `${p}hosts`, next: `${p}next`, flight: `${p}flight`, hostOf: `${p}hostof`, delayed: `${p}delayed`, hq: (h: string) => `${p}hq:${h}` };
}
