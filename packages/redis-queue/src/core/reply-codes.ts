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

// Single codes by the names the Lua scripts use for them (`<GROUP>_<CODE>`, from the same include), for call sites
// that test one code; no number is written here either.

/** add-requests.lua, per entry: the request was stored. */
export const ADD_ADDED = ADD_REPLY.ADDED;
/** add-requests.lua, per entry: a request with this id is already pending. */
export const ADD_PRESENT = ADD_REPLY.PRESENT;
/** add-requests.lua, per entry: a request with this id is already handled. */
export const ADD_HANDLED = ADD_REPLY.HANDLED;
/** add-requests.lua, per entry: the enqueue filter had seen its dedup key; nothing stored. */
export const ADD_FILTERED = ADD_REPLY.FILTERED;
/** add-requests.lua, per feed entry: the item could not be parsed and went to the dead letters. */
export const ADD_DEAD_LETTERED = ADD_REPLY.DEAD_LETTERED;
/** add-requests.lua, per feed entry (set / sorted-set feed): another worker removed this member first; nothing done. */
export const ADD_FEED_TAKEN = ADD_REPLY.FEED_TAKEN;
/** add-requests.lua, whole reply: the feed head changed under the caller; nothing was done. */
export const FEED_HEAD_CHANGED = FEED_REPLY.HEAD_CHANGED;

/** ARGV[4] of add-requests.lua: no feed step. */
export const FEED_STEP_NONE = String(FEED_STEP.NONE);
/** ARGV[4] of add-requests.lua: check that the feed still starts with the items, then trim them. */
export const FEED_STEP_CHECK = String(FEED_STEP.CHECK);
/** ARGV[4] of add-requests.lua: the caller already popped the items. */
export const FEED_STEP_POPPED = String(FEED_STEP.POPPED);
/** ARGV[4] of add-requests.lua: set feed; remove each member (SREM), commit those removed. */
export const FEED_STEP_SREM = String(FEED_STEP.SREM);
/** ARGV[4] of add-requests.lua: sorted-set feed; remove each member (ZREM), commit those removed. */
export const FEED_STEP_ZREM = String(FEED_STEP.ZREM);

/** dead-letter-request.lua: the entry was moved. */
export const DEAD_LETTER_MOVED = DEAD_LETTER_REPLY.MOVED;
/** requeue-dead-letter.lua: the letter went back into the queue. */
export const REQUEUE_REQUEUED = REQUEUE_REPLY.REQUEUED;

/** take-over-scrapy-batch.lua, whole reply: the list frontier's end changed under the caller; nothing was done. */
export const TAKEOVER_SOURCE_CHANGED = TAKEOVER_REPLY.SOURCE_CHANGED;
/** take-over-scrapy-batch.lua, per entry: a Scrapy worker popped the sorted-set entry first; nothing stored. */
export const TAKEOVER_GONE = TAKEOVER_REPLY.GONE;
