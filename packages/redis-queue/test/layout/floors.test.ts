import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { floorViolations } from '../../scripts/check-floors.mjs';

const check = floorViolations as (srcDir: string) => string[];

describe('floor plan of src/ (scripts/check-floors.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'floors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every import of src/ runs down', () => {
    expect(check(fileURLToPath(new URL('../../src', import.meta.url)))).toEqual([]);
  });

  it('names an import from a lower floor into a higher one, type-only included, and a folder not in the list', () => {
    mkdirSync(join(dir, 'core'));
    mkdirSync(join(dir, 'queue'));
    mkdirSync(join(dir, 'attic'));
    writeFileSync(join(dir, 'queue', 'hub.ts'), "import { ADDED } from '../core/codes.js';\nexport const hub = ADDED;\n");
    writeFileSync(join(dir, 'core', 'codes.ts'), "import type { hub } from '../queue/hub.js';\nexport const ADDED = 0;\nexport type Hub = typeof hub;\n");
    writeFileSync(join(dir, 'core', 'codes.test.ts'), "import { hub } from '../queue/hub.js';\n");
    writeFileSync(join(dir, 'attic', 'old.ts'), 'export {};\n');
    const problems = check(dir);
    expect(problems).toHaveLength(2);
    expect(problems).toContainEqual(expect.stringMatching(/^core\/codes\.ts \(floor core\) imports \.\.\/queue\/hub\.js \(floor queue\)$/));
    expect(problems).toContainEqual(expect.stringMatching(/^attic\/old\.ts: folder attic is not in the floor list/));
  });
});
