import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { KIT_LUA_INCLUDES_DIR } from './kit-paths.js';
import { LuaIncludeError } from './lua-include-error.js';
import { renderReplyCodesLua, type ReplyCodeTable } from './reply-codes-lua.js';

/** Options of {@link resolveLuaIncludes}. */
export interface LuaIncludeOptions {
  /** Folders searched after the including file's own `includes/` folder and its own folder.
   * @defaultValue the kit's shared fragments (`packages/redis-kit/src/lua/includes`) */
  includeDirs?: readonly string[];
}

/** A script with every include pulled in. */
export interface ResolvedLua {
  /** The Lua that runs on Redis. */
  source: string;
  /** Every file it was assembled from (the script first), for watch mode. */
  files: string[];
}

/** `--- @include "name"` on a line of its own (BullMQ's directive). */
const DIRECTIVE = /^[ \t]*---[ \t]*@include[ \t]+"([^"]+)"[ \t]*$/gm;

function candidates(name: string, from: string, dirs: readonly string[]): string[] {
  if (name.startsWith('./') || name.startsWith('../') || isAbsolute(name)) {
    const path = resolve(dirname(from), name);
    return [path.endsWith('.lua') ? path : `${path}.lua`];
  }
  const base = name.replace(/\.lua$/, '');
  const out: string[] = [];
  for (const dir of [join(dirname(from), 'includes'), dirname(from), ...dirs]) {
    out.push(join(dir, `${base}.lua`), join(dir, `${base}.json`));
  }
  return out;
}

function load(path: string): string {
  if (!path.endsWith('.json')) return readFileSync(path, 'utf8');
  // A JSON include is a reply-code table: it becomes Lua constants.
  return renderReplyCodesLua(JSON.parse(readFileSync(path, 'utf8')) as ReplyCodeTable, path);
}

/**
 * Assembles a Lua script the way BullMQ does, at build time: each `--- @include "name"` line is replaced by the
 * fragment `name.lua` (or the reply-code table `name.json`, rendered as constants), searched in the including
 * file's `includes/` folder, then its own folder, then `includeDirs` (by default the kit's shared fragments).
 * `"./x"` and `"../x"` are paths relative to the including file. Includes nest; each fragment is pulled in once
 * per script (a second directive becomes a comment), so two fragments may both include a third.
 *
 * @param file - absolute path of the script
 * @param options - extra include folders
 * @returns the assembled source and the files it came from
 * @throws {@link LuaIncludeError} for an include found in no folder (naming the file, line and folders searched),
 *   or a cycle (naming the chain)
 */
export function resolveLuaIncludes(file: string, options: LuaIncludeOptions = {}): ResolvedLua {
  const dirs = options.includeDirs ?? [KIT_LUA_INCLUDES_DIR];
  const included = new Set<string>();
  const files: string[] = [file];
  const expand = (path: string, text: string, stack: readonly string[]): string =>
    text.replace(DIRECTIVE, (line: string, name: string, offset: number) => {
      const lineNo = text.slice(0, offset).split('\n').length;
      const tried = candidates(name, path, dirs);
      const found = tried.find((candidate) => existsSync(candidate));
      if (!found) {
        throw new LuaIncludeError(
          `${path}:${lineNo}: --- @include "${name}" not found; looked for ${tried.join(', ')}. ` +
            'Add the fragment to one of those folders or fix the name.',
        );
      }
      if (stack.includes(found)) {
        throw new LuaIncludeError(
          `${path}:${lineNo}: include cycle ${[...stack, found].join(' -> ')}. A fragment may not include itself, ` +
            'directly or through others; move the shared part into a third fragment.',
        );
      }
      if (included.has(found)) return `-- @include "${name}": already included above`;
      included.add(found);
      files.push(found);
      return expand(found, load(found), [...stack, found]).replace(/\n$/, '');
    });
  return { source: expand(file, readFileSync(file, 'utf8'), [file]), files };
}
