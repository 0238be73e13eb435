import type { Overview } from './dashboard-api.js';

/** Where the first snapshot goes: the page's script reads it before its first poll (see app.js). */
const ANCHOR = '<script src="/vendor/uPlot.iife.min.js"></script>';

/** Text for HTML: the five characters that could open markup or end an attribute, escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a `<script>` element: no `</script>`, `<!--` or line separators can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** @param bytes - a size @returns it as the page's header shows it (app.js `bytes()`) */
function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

/**
 * The dashboard page with its first data in it: the header (Redis, key prefix, memory) filled in, and the whole
 * snapshot as JSON that the page draws before its first poll, so the first paint (and a screenshot taken at once)
 * already shows every queue instead of "connecting…" badges.
 *
 * @param template - index.html as shipped
 * @param overview - a snapshot from `DashboardApi.overview()`, or undefined when Redis did not answer (the page
 *   then polls as before and says so)
 * @returns the HTML to serve
 * @throws Error when the template lost the uPlot script tag the snapshot is placed before (a broken build)
 */
export function renderInitialPage(template: string, overview: Overview | undefined): string {
  if (!template.includes(ANCHOR)) throw new Error('dashboard index.html has no uPlot script tag; reinstall crawlee-redis-queue');
  if (overview === undefined) return template;
  return template
    .replace('<b id="redis">…</b>', `<b id="redis">${escapeHtml(overview.redis)}</b>`)
    .replace('<b id="prefix">…</b>', `<b id="prefix">${escapeHtml(overview.keyPrefix)}</b>`)
    .replace('<b id="memory">…</b>', `<b id="memory">${formatBytes(overview.memoryBytes)}</b>`)
    .replace(ANCHOR, `<script id="initial-overview" type="application/json">${scriptJson(overview)}</script>\n  ${ANCHOR}`);
}
