/**
 * Reply numbers of the queue's Lua scripts that the TypeScript side reads, in one place (so they can be swapped for
 * constants generated from the Lua sources).
 */

/** add-requests.lua, per entry: the request was stored. */
export const ADD_ADDED = 0;
/** add-requests.lua, per entry: a request with this id is already pending. */
export const ADD_PRESENT = 1;
/** add-requests.lua, per entry: a request with this id is already handled. */
export const ADD_PRESENT_HANDLED = 2;
/** add-requests.lua, per entry: the enqueue filter had seen its dedup key; nothing stored. */
export const ADD_FILTERED = 3;
/** add-requests.lua, per feed entry: the item could not be parsed and went to the dead letters. */
export const ADD_DEAD_LETTERED = 4;
/** add-requests.lua, whole reply: the feed head changed under the caller; nothing was done. */
export const ADD_FEED_HEAD_CHANGED = -1;

/** ARGV[4] of add-requests.lua: no feed step. */
export const FEED_STEP_NONE = '0';
/** ARGV[4] of add-requests.lua: check that the feed still starts with the items, then trim them. */
export const FEED_STEP_CHECK = '1';
/** ARGV[4] of add-requests.lua: the caller already popped the items. */
export const FEED_STEP_POPPED = '2';

/** dead-letter-request.lua: the entry was moved. */
export const DEAD_LETTER_MOVED = 1;
/** requeue-dead-letter.lua: the letter went back into the queue. */
export const REQUEUED = 1;
