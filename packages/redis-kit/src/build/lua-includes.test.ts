import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { luaIncludesPlugin } from './esbuild-lua-plugin.js';
import { LuaIncludeError } from './lua-include-error.js';
import { resolveLuaIncludes } from './lua-includes.js';

let dir: string;
let shared: string;
const write = (path: string, text: string): string => {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lua-includes-'));
  shared = join(dir, 'kit');
  mkdirSync(shared);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveLuaIncludes', () => {
  it('pulls in nested includes from includes/, then the shared folder, keeping the KEYS/ARGV header', () => {
    write('lua/includes/a.lua', '--- @include "b"\nlocal a = b + 1\n');
    write('lua/includes/b.lua', 'local b = 1\n');
    write('kit/c.lua', 'local c = 3\n');
    const script = write('lua/op.lua', '--[[ KEYS[1] x ]]\n--- @include "a"\n--- @include "c"\nreturn a + c\n');
    const { source, files } = resolveLuaIncludes(script, { includeDirs: [shared] });
    expect(source).toBe('--[[ KEYS[1] x ]]\nlocal b = 1\nlocal a = b + 1\nlocal c = 3\nreturn a + c\n');
    expect(files).toEqual([script, join(dir, 'lua/includes/a.lua'), join(dir, 'lua/includes/b.lua'), join(shared, 'c.lua')]);
  });

  it('includes a fragment once per script, however many fragments ask for it', () => {
    write('lua/includes/time.lua', 'local function now() return 1 end\n');
    write('lua/includes/lock.lua', '--- @include "time"\nlocal function lock() return now() end\n');
    const script = write('lua/op.lua', '--- @include "time"\n--- @include "lock"\n--- @include "time"\nreturn lock()\n');
    const { source } = resolveLuaIncludes(script, { includeDirs: [shared] });
    expect(source.match(/local function now/g)).toHaveLength(1);
    expect(source.indexOf('local function now')).toBeLessThan(source.indexOf('local function lock'));
  });

  it('fails clearly on a missing include, naming the file, the line and the folders searched', () => {
    const script = write('lua/op.lua', 'local x = 1\n--- @include "nope"\n');
    expect(() => resolveLuaIncludes(script, { includeDirs: [shared] })).toThrow(LuaIncludeError);
    expect(() => resolveLuaIncludes(script, { includeDirs: [shared] })).toThrow(
      new RegExp(`op\\.lua:2: --- @include "nope" not found; looked for .*lua/includes/nope\\.lua.*kit/nope\\.lua`),
    );
  });

  it('fails clearly on a cycle, naming the chain', () => {
    write('lua/includes/a.lua', '--- @include "b"\n');
    write('lua/includes/b.lua', '--- @include "a"\n');
    const script = write('lua/op.lua', '--- @include "a"\n');
    expect(() => resolveLuaIncludes(script, { includeDirs: [shared] })).toThrow(/include cycle .*a\.lua -> .*b\.lua -> .*a\.lua/);
  });

  it('renders a reply-code table include as Lua constants', () => {
    write('lua/reply-codes.json', JSON.stringify({ results: { add: { ADDED: 0, headChanged: -1 } }, errors: { NOT_FOUND: 'RQ_NOT_FOUND' } }));
    const script = write('lua/op.lua', '--- @include "reply-codes"\nreturn ADD_ADDED\n');
    const { source } = resolveLuaIncludes(script, { includeDirs: [shared] });
    expect(source).toContain('local ADD_ADDED = 0\nlocal ADD_HEAD_CHANGED = -1\nlocal ERR_NOT_FOUND = \'RQ_NOT_FOUND\'\n');
  });

  it('the shared kit fragments resolve by default (bloom-bits)', () => {
    const script = write('lua/op.lua', '--- @include "bloom-bits"\nreturn 1\n');
    expect(resolveLuaIncludes(script).source).toContain('local function bloomCheckAndSet');
  });
});

describe('luaIncludesPlugin (esbuild)', () => {
  it('bundles a .lua import as the assembled text, and fails the build on a missing include', async () => {
    write('lua/includes/t.lua', 'local t = 42\n');
    write('lua/op.lua', '--- @include "t"\nreturn t\n');
    const entry = write('entry.js', "import op from './lua/op.lua'; export default op;");
    const ok = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', plugins: [luaIncludesPlugin({ includeDirs: [shared] })], logLevel: 'silent' });
    expect(ok.outputFiles[0]!.text).toContain(JSON.stringify('local t = 42\nreturn t\n'));

    write('lua/op.lua', '--- @include "missing"\n');
    const failed = await build({ entryPoints: [entry], bundle: true, write: false, plugins: [luaIncludesPlugin({ includeDirs: [shared] })], logLevel: 'silent' }).catch((e: unknown) => e);
    expect(String((failed as Error).message)).toMatch(/--- @include "missing" not found/);
  });
});
