import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildDemoSiteModel, type DemoSiteModel } from './model.js';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Writes the demo site's HTML files into `dir` (a new temporary folder when omitted).
 *
 * @returns the folder and the model the files were written from (its `expected` counts are what a crawl must give)
 */
export function writeDemoSite(dir?: string, seed?: number): { dir: string; model: DemoSiteModel } {
  const root = dir ?? mkdtempSync(join(tmpdir(), 'distributed-cheerio-demo-'));
  const model = buildDemoSiteModel(seed);
  for (const file of model.files) {
    const items = file.links
      .map((link, i) => `      <li><a href="${escapeHtml(link.href)}">link ${i + 1}</a></li>`)
      .join('\n');
    const html = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(file.title)}</title></head>
  <body>
    <h1 id="top">${escapeHtml(file.title)}</h1>
    <ul>
${items}
    </ul>
  </body>
</html>
`;
    const target = join(root, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, html);
  }
  return { dir: root, model };
}
