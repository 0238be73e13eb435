import { fingerprint } from 'crawlee-scrapy-fingerprint';
import { FLEET_FINGERPRINT } from '../crawlee/fleet-fingerprint.js';
import type { AccessLogEntry } from './access-log.js';
import type { SiteModel } from './site-model.js';

/**
 * The identity both fleets deduplicate on: scrapy-redis's fingerprint of the request as Debian's Scrapy 2.8 builds
 * it (`#!frag` becomes `?_escaped_fragment_=frag`; other fragments and the query order do not count).
 */
export function pageIdentity(url: string): string {
  return fingerprint({ url }, FLEET_FINGERPRINT);
}

/**
 * Every request reachable from the entry pages by following links, as identity → absolute URL (the first link seen).
 * `follow` decides, by a link's path, whether a crawler follows it (the entry pages themselves are always included).
 */
export function reachable(
  model: SiteModel,
  origin: string,
  seeds: readonly string[],
  follow: (pathname: string) => boolean = () => true,
): Map<string, string> {
  const found = new Map<string, string>();
  const queue: string[] = [];
  const visit = (url: string): void => {
    const id = pageIdentity(url);
    if (found.has(id)) return;
    found.set(id, url);
    queue.push(url);
  };
  for (const seed of seeds) visit(origin + seed);
  while (queue.length > 0) {
    const url = new URL(queue.shift()!);
    for (const href of model.links(url.pathname) ?? []) {
      const link = new URL(href, url);
      if (follow(link.pathname)) visit(link.href);
    }
  }
  return found;
}

/** The access log grouped by identity (each group: the requests that fetched that page, in order). */
export function fetchesByIdentity(
  entries: readonly AccessLogEntry[],
  origin: string,
): Map<string, AccessLogEntry[]> {
  const out = new Map<string, AccessLogEntry[]>();
  for (const e of entries) {
    const id = pageIdentity(origin + e.path);
    const list = out.get(id) ?? [];
    list.push(e);
    out.set(id, list);
  }
  return out;
}
