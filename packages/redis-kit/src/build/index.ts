/**
 * Build-time half of the kit: the Lua include resolver (shared by the esbuild plugin in tsup configs and the vitest
 * plugin in test-utils, so tests run exactly the built Lua), reply-code tables, the version define, and the tsup
 * options that bundle the kit into a published package.
 * @packageDocumentation
 */
export { resolveLuaIncludes, type LuaIncludeOptions, type ResolvedLua } from './lua-includes.js';
export { luaIncludesPlugin } from './esbuild-lua-plugin.js';
export { LuaIncludeError } from './lua-include-error.js';
export { renderReplyCodesLua, type ReplyCodeTable } from './reply-codes-lua.js';
export { packageVersionDefine } from './package-version.js';
export { bundledPackageOptions, type BundledPackageOptions } from './bundled-package-options.js';
export { KIT_LUA_INCLUDES_DIR } from './kit-paths.js';
