import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder of this code: `dist/` once built (ESM or CJS bundle), `src/dashboard/` when tests run the sources.
const here = dirname(fileURLToPath(import.meta.url)); // tsup's shims give the CJS build import.meta.url

/** The files of the dashboard: the page, and uPlot (bundled into `dist/dashboard/vendor` by the build, so the page
 * works offline and needs no CDN). */
export interface DashboardAssets {
  /** Folder with index.html, app.js, style.css. */
  pageDir: string;
  /** uPlot's browser build and stylesheet. */
  uplotJs: string;
  uplotCss: string;
}

/**
 * Finds the dashboard files next to the running code.
 *
 * @returns the paths
 * @throws Error when the package was built without them (a broken install)
 */
export function dashboardAssets(): DashboardAssets {
  const built = join(here, 'dashboard');
  if (existsSync(join(built, 'index.html'))) {
    return { pageDir: built, uplotJs: join(built, 'vendor', 'uPlot.iife.min.js'), uplotCss: join(built, 'vendor', 'uPlot.min.css') };
  }
  const source = join(here, 'public');
  if (existsSync(join(source, 'index.html'))) {
    const require = createRequire(join(here, 'assets.ts'));
    return {
      pageDir: source,
      uplotJs: require.resolve('uplot/dist/uPlot.iife.min.js'),
      uplotCss: require.resolve('uplot/dist/uPlot.min.css'),
    };
  }
  throw new Error(`dashboard page not found next to ${here}; reinstall crawlee-redis-queue (its dist/dashboard folder is missing)`);
}
