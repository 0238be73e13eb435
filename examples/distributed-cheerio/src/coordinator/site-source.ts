import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { log } from 'crawlee';
import { writeDemoSite } from '../demo-site/write.js';
import type { DemoSiteModel } from '../demo-site/model.js';
import { POSTGRES_DOCS_DIR, type RunOptions } from '../options.js';
import { ServedPortInUseError } from '../errors/served-port-in-use-error.js';
import { serveStaticFolder, type StaticSite } from './static-server.js';

/** What the run crawls. */
export interface SiteSource {
  startUrl: string;
  /** The served folder (null for `--start-url` and `--join`). */
  server: StaticSite | null;
  demo: DemoSiteModel | null;
  /** What was served or crawled, as {@link SeededSite.source} records it: `folder:<path>`, `demo`, `url:<start URL>`. */
  source: string;
  close(): Promise<void>;
}

/** What a run's options would crawl, in the form {@link SeededSite.source} records it (for the resume check). */
export function sourceOf(options: RunOptions): string {
  if (options.startUrl !== undefined) return `url:${options.startUrl}`;
  if (options.demo) return 'demo';
  return `folder:${options.site ?? ''}`;
}

/** How a source reads in a message. */
export function describeSource(source: string): string {
  return source === 'demo' ? 'the generated demo site' : source.replace(/^(folder|url):/, '');
}

/**
 * Serves the folder to crawl (the PostgreSQL docs, `--site`, or the generated demo site) on a loopback port, or
 * passes `--start-url` through.
 */
export async function openSiteSource(options: RunOptions, resume?: { queueName: string; origin: string }): Promise<SiteSource> {
  if (options.startUrl !== undefined) {
    return { startUrl: options.startUrl, server: null, demo: null, source: sourceOf(options), close: () => Promise.resolve() };
  }
  if (options.join) return { startUrl: '', server: null, demo: null, source: '', close: () => Promise.resolve() };
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
  const port = resume === undefined ? 0 : Number(new URL(resume.origin).port);
  const server = await serveStaticFolder(dir, port).catch((error: unknown) => {
    if (removeDir && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    if (resume !== undefined && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ServedPortInUseError(resume.queueName, resume.origin, { cause: error });
    }
    throw error;
  });
  const start = existsSync(join(dir, 'index.html')) ? 'index.html' : '';
  log.info(`serving ${dir} at ${server.origin}${resume === undefined ? '' : ` (the origin queue "${resume.queueName}" was seeded with)`}`);
  return {
    startUrl: new URL(start, server.origin).href,
    server,
    demo,
    source: sourceOf(options),
    close: async () => {
      await server.close();
      if (removeDir && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
