/** Replaced at build time by the version in package.json (tsup and vitest `define`, see the kit's
 * `packageVersionDefine`); never typed by hand. */
declare const __PACKAGE_VERSION__: string;

/** This package's version, from its package.json. It is part of every Lua command name, so two versions on one
 * connection (a rolling upgrade) never run each other's scripts. */
export const PACKAGE_VERSION: string = __PACKAGE_VERSION__;
