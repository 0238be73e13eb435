import type { Plugin } from 'esbuild';
import { resolveLuaIncludes, type LuaIncludeOptions } from './lua-includes.js';

/**
 * esbuild (and so tsup) plugin: a `*.lua` import becomes a default-exported string of the script with every
 * `--- @include` resolved (see {@link resolveLuaIncludes}). A missing include or a cycle fails the build with the
 * file, line and the folders searched. Use it in `esbuildPlugins` of a package's tsup config.
 *
 * @param options - extra include folders (default: the kit's shared fragments)
 * @returns the plugin
 */
export function luaIncludesPlugin(options: LuaIncludeOptions = {}): Plugin {
  return {
    name: 'crawlee-distributed:lua-includes',
    setup(build) {
      build.onLoad({ filter: /\.lua$/ }, (args) => {
        const { source, files } = resolveLuaIncludes(args.path, options);
        return { contents: source, loader: 'text', watchFiles: files };
      });
    },
  };
}
