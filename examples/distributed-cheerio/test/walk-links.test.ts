import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkSiteLinks } from '../src/site/walk-links.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'walk-'));
  dirs.push(dir);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), `<!doctype html><html><body>${body}</body></html>`);
  }
  return dir;
}

describe('walkSiteLinks', () => {
  it('resolves relative links, drops fragments and queries, stays on the host, only existing files', () => {
    const dir = site({
      'index.html': '<a href="a.html#x">a</a><a href="sub/b.html?q=1">b</a><a href="http://other.example/c.html">c</a><a href="mailto:x@y">m</a><a href="gone.html">g</a>',
      'a.html': '<a href="/index.html">home</a><a href="#top">top</a>',
      'sub/b.html': '<a href="../a.html">a</a><a href="c.html">c</a>',
      'sub/c.html': 'leaf',
      'orphan.html': 'nobody links here',
    });
    const walk = walkSiteLinks(dir);
    expect(walk.files).toEqual(['a.html', 'index.html', 'sub/b.html', 'sub/c.html']);
    expect([...walk.missing.keys()]).toEqual(['gone.html']);
  });

  it('honours <base href>', () => {
    const dir = site({
      'index.html': '<head><base href="/sub/"></head><a href="c.html">c</a>',
      'sub/c.html': 'leaf',
    });
    expect(walkSiteLinks(dir).files).toEqual(['index.html', 'sub/c.html']);
  });
});
