import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  programSnippets,
  typecheckSnippets,
  type MarkdownSnippet,
} from '@crawlee-distributed/test-utils/readme';
import { describe, expect, it } from 'vitest';

// The package READMEs' programs (and those of crawlee-redis-queue's docs pages), checked as a user's project sees the packages (this example depends on all three,
// so they are built before its tests run). A snippet with imports is a complete program, unless its first line says
// `// continues ...` (what it takes from the reader's code).
const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const READMES = [
  'packages/redis-queue/README.md',
  'packages/bloom-dedup/README.md',
  'packages/scrapy-fingerprint/README.md',
  ...readdirSync(`${REPO}packages/redis-queue/docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `packages/redis-queue/docs/${name}`),
];
const programs = READMES.flatMap((readme) =>
  programSnippets(`${REPO}${readme}`).map((snippet: MarkdownSnippet) => ({
    name: `${readme}:${snippet.line} (${snippet.heading})`,
    snippet,
  })),
);

describe('README snippets', () => {
  it('every README program typechecks on its own against the built packages', () => {
    expect(programs.length).toBeGreaterThanOrEqual(12);
    const diagnostics = typecheckSnippets(
      REPO,
      programs.map(({ name, snippet }) => ({ name, code: snippet.code })),
    );
    expect(diagnostics).toEqual([]);
  }, 180_000);

  it('every program that opens a Redis queue finishes it, and quits a connection it made itself', () => {
    const missing: string[] = [];
    for (const { name, snippet } of programs) {
      const { code } = snippet;
      const queue = /const (\w+) = await openRedisRequestQueue\(/.exec(code)?.[1];
      if (queue && !code.includes(`await ${queue}.close()`))
        missing.push(`${name}: no \`await ${queue}.close()\``);
      const own = /const (\w+) = new (?:Redis|Cluster)\(/.exec(code)?.[1];
      if (own && !code.includes(`await ${own}.quit()`))
        missing.push(`${name}: no \`await ${own}.quit()\` for its own connection`);
    }
    expect(missing).toEqual([]);
  });
});
