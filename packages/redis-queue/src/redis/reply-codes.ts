import table from '../lua/reply-codes.json' with { type: 'json' };

// The numbers live in src/lua/reply-codes.json only; the Lua scripts get the same table through
// `--- @include "reply-codes"`, so Lua and TypeScript cannot drift apart.

/** Per-request results of add-requests.lua. */
export const ADD_REPLY = table.results.add;
/** Whole-call results of add-requests.lua with a feed step. */
export const FEED_REPLY = table.results.feed;
/** Results of claim-feed-batch.lua (first element of its reply). */
export const FEED_CLAIM_REPLY = table.results.feedClaim;
/** Results of delete-request.lua. */
export const DELETE_REPLY = table.results.delete;
/** Results of dead-letter-request.lua. */
export const DEAD_LETTER_REPLY = table.results.deadLetter;
/** ARGV[4] values of add-requests.lua (the feed step). */
export const FEED_STEP = table.results.feedStep;
/** Results of requeue-dead-letter.lua. */
export const REQUEUE_REPLY = table.results.requeue;
/** Results of take-over-scrapy-batch.lua (besides the add codes). */
export const TAKEOVER_REPLY = table.results.takeover;
/** Error reply prefixes (`redis.error_reply(ERR_NOT_FOUND .. ' detail')`), by name. */
export const ERROR_REPLY = table.errors;
/** Name of an error reply in the table; `mapScriptError` must have a class for each. */
export type ErrorReplyName = keyof typeof table.errors;
