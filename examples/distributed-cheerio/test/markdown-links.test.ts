// Every relative link in the repository's Markdown (READMEs, docs pages) points at a file that exists, and a link
// with a #fragment into a Markdown file at one of its headings (GitHub's anchor rule) or an explicit id.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.turbo', '.tmp', 'shared']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Lines outside fenced code blocks, with inline code removed, and their line numbers. */
function proseLines(text: string): { line: string; n: number }[] {
  let fenced = false;
  const out: { line: string; n: number }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    else if (!fenced) out.push({ line: line.replace(/`[^`]*`/g, ''), n: i + 1 });
  });
  return out;
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`; repeats get -1, -2. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      const s = slug(heading[1]!);
      const n = seen.get(s) ?? 0;
      seen.set(s, n + 1);
      anchors.add(n === 0 ? s : `${s}-${n}`);
    }
    for (const m of line.matchAll(/(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

describe('Markdown links', () => {
  it('every relative link resolves to a file, and every #fragment to a heading of it', () => {
    const files = markdownFiles(REPO);
    expect(files.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, n } of proseLines(readFileSync(file, 'utf8'))) {
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
          const [path = '', fragment] = target!.split('#');
          const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
          const where = `${relative(REPO, file)}:${n} -> ${target}`;
          if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
          else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
