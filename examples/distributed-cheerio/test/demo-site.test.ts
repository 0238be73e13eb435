import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemoSiteModel, pageKey } from '../src/demo-site/model.js';
import { stripTrackingParameters } from '../src/demo-site/tracking.js';
import { writeDemoSite } from '../src/demo-site/write.js';
import { walkSiteLinks } from '../src/site/walk-links.js';

describe('demo site model', () => {
  it('is the same for the same seed and has the traps it promises', () => {
    const a = buildDemoSiteModel();
    const b = buildDemoSiteModel();
    expect(a).toEqual(b);
    const hrefs = a.files.flatMap((f) => f.links.map((l) => l.href));
    expect(hrefs.some((h) => h.includes('#section-'))).toBe(true);
    expect(hrefs.some((h) => /[?&]utm_/.test(h))).toBe(true);
    expect(hrefs.some((h) => /catalog\.html\?page=/.test(h))).toBe(true); // shuffled query order
    expect(hrefs.some((h) => /catalog\.html\?category=/.test(h))).toBe(true);
    for (const file of a.files) {
      const seen = new Set<string>();
      if (file.links.some((l) => l.target !== null && (seen.has(l.target) || !seen.add(l.target)))) return;
    }
    throw new Error('no page links to the same target twice');
  });

  it('counts: 28 reachable pages (orphan excluded), attempts = seed + same-host links of reachable pages', () => {
    const model = buildDemoSiteModel();
    expect(model.expected.uniquePages).toBe(28);
    expect(model.reachablePages).not.toContain('orphan.html');
    expect(new Set(model.reachablePages).size).toBe(model.reachablePages.length);
    const fileOf = new Map(model.files.map((f) => [f.path, f]));
    const attempts =
      1 +
      model.reachablePages
        .map((key) => fileOf.get(key.split('?')[0] as string)!.links.filter((l) => l.target !== null).length)
        .reduce((x, y) => x + y, 0);
    expect(model.expected.enqueueAttempts).toBe(attempts);
    expect(model.expected.duplicatesFiltered).toBe(attempts - 28);
  });

  it('pageKey sorts the query like a canonical URL', () => {
    expect(pageKey({ path: 'catalog.html', query: [['page', '2'], ['category', 'maps']] })).toBe('catalog.html?category=maps&page=2');
  });

  it('writes HTML whose links resolve to the files of the model', () => {
    const { dir, model } = writeDemoSite();
    try {
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      expect(html).toContain('<title>Demo site</title>');
      const walk = walkSiteLinks(dir);
      // Files, not pages: catalog query variants are one file; the orphan is never reached.
      const files = new Set(model.reachablePages.map((k) => k.split('?')[0]));
      expect(walk.files).toEqual([...files].sort());
      expect(walk.missing.size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stripTrackingParameters', () => {
  it('drops utm_*, fbclid, gclid and keeps the rest byte for byte', () => {
    expect(stripTrackingParameters('http://h/a.html?utm_source=x&utm_medium=y')).toBe('http://h/a.html');
    expect(stripTrackingParameters('http://h/c.html?page=2&utm_campaign=z&category=a%20b#s')).toBe('http://h/c.html?page=2&category=a%20b#s');
    expect(stripTrackingParameters('http://h/c.html?fbclid=1&q=%E2%82%AC+x')).toBe('http://h/c.html?q=%E2%82%AC+x');
    expect(stripTrackingParameters('http://h/c.html?q=1')).toBe('http://h/c.html?q=1');
  });
});
