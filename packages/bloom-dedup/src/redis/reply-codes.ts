import table from '../lua/reply-codes.json' with { type: 'json' };

// The numbers live in src/lua/reply-codes.json only; the Lua scripts get the same table through
// `--- @include "reply-codes"`, so Lua and TypeScript cannot drift apart.

/** Per-key results of bloom_add.lua and set_add.lua (SADD's own 1/0). */
export const KEY_REPLY = table.results.key;
/** Per-key results of bloom_has.lua. */
export const HAS_REPLY = table.results.has;
/** Results of meta_open.lua. */
export const OPEN_REPLY = table.results.open;
/** Result codes of split_claim.lua. */
export const SPLIT_REPLY = table.results.split;
/** Error reply prefixes, by name. */
export const ERROR_REPLY = table.errors;
/** Name of an error reply in the table; `mapScriptError` must have a class for each. */
export type ErrorReplyName = keyof typeof table.errors;
