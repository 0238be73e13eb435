import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'cheerio';

/** The result of walking a folder's links without a crawler. */
export interface LinkWalk {
  /** Site-relative paths (`guide/a.html`) of the files reached from the start file, start included, sorted. */
  files: string[];
  /** Links to same-site files that do not exist (site-relative path → how many links). */
  missing: Map<string, number>;
}

const BASE = 'http://site.invalid/';
const ORIGIN = new URL(BASE).origin;

/**
 * Walks the HTML links of a static folder the way a browser would resolve them, independently of Crawlee: parse each
 * file with cheerio, resolve every `a[href]` against the file's URL (and `<base href>`), drop the fragment and the
 * query (a static folder serves a file whatever the query), keep same-host links to files that exist, follow HTML.
 *
 * @param dir - the folder served as the site root
 * @param startPath - the start file, relative to `dir`
 */
export function walkSiteLinks(dir: string, startPath = 'index.html'): LinkWalk {
  const seen = new Set<string>([startPath]);
  const missing = new Map<string, number>();
  const queue = [startPath];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (!/\.html?$/i.test(path)) continue;
    const $ = load(readFileSync(join(dir, path), 'utf8'));
    let base = new URL(path, BASE);
    const baseHref = $('base[href]').attr('href');
    if (baseHref !== undefined) base = new URL(baseHref, base);
    $('a[href]').each((_, element) => {
      const href = $(element).attr('href') ?? '';
      let url: URL;
      try {
        url = new URL(href, base);
      } catch {
        return;
      }
      if (url.origin !== ORIGIN) return;
      let target = decodeURIComponent(url.pathname).replace(/^\//, '');
      if (target === '' || target.endsWith('/')) target += 'index.html';
      if (seen.has(target)) return;
      const file = join(dir, target);
      if (!existsSync(file) || !statSync(file).isFile()) {
        missing.set(target, (missing.get(target) ?? 0) + 1);
        return;
      }
      seen.add(target);
      queue.push(target);
    });
  }
  return { files: [...seen].sort(), missing };
}
