/** Package version; it is part of every Lua command name so two versions on one connection never mix scripts. */
export const PACKAGE_VERSION = '0.1.0';

/** Suffix of the ioredis command names (`rqAdd_0_1_0`). */
export const COMMAND_SUFFIX = `_${PACKAGE_VERSION.replace(/\W/g, '_')}`;
