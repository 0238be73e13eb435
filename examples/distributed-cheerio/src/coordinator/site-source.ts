import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { log } from 'crawlee';
import { writeDemoSite } from '../demo-site/write.js';
import type { DemoSiteModel } from '../demo-site/model.js';
import { POSTGRES_DOCS_DIR, type RunOptions } from '../options.js';
import { serveStaticFolder, type StaticSite } from './static-server.js';

/** What the run crawls. */
export interface SiteSource {
  startUrl: string;
  /** The served folder (null for `--start-url` and `--join`). */
  server: StaticSite | null;
  demo: DemoSiteModel | null;
  close(): Promise<void>;
}

/**
 * Serves the folder to crawl (the PostgreSQL docs, `--site`, or the generated demo site) on a loopback port, or
 * passes `--start-url` through.
 */
export async function openSiteSource(options: RunOptions): Promise<SiteSource> {
  if (options.startUrl !== undefined) {
    return { startUrl: options.startUrl, server: null, demo: null, close: () => Promise.resolve() };
  }
  if (options.join) return { startUrl: '', server: null, demo: null, close: () => Promise.resolve() };
  let dir = options.site;
  let demo: DemoSiteModel | null = null;
  let removeDir = false;
  if (options.demo) {
    if (options.docsMissing) {
      log.warning(
        `The PostgreSQL docs are not installed (${POSTGRES_DOCS_DIR}). Install them with ` +
          '`sudo apt-get install postgresql-doc-15` for the real crawl (about 1,170 pages); crawling the generated demo site now.',
      );
    }
    const written = writeDemoSite();
    dir = written.dir;
    demo = written.model;
    removeDir = true;
    log.info(
      `demo site: ${written.model.files.length} files in ${dir}, ${written.model.expected.uniquePages} pages reachable ` +
        `(query variants, fragments, tracking parameters and repeated links included)`,
    );
  }
  if (dir === undefined) throw new Error('no site to crawl');
  const server = await serveStaticFolder(dir);
  const start = existsSync(join(dir, 'index.html')) ? 'index.html' : '';
  log.info(`serving ${dir} at ${server.origin}`);
  return {
    startUrl: new URL(start, server.origin).href,
    server,
    demo,
    close: async () => {
      await server.close();
      if (removeDir && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
