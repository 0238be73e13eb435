export { DedupError } from './dedup-error.js';
export { InvalidDedupOptionsError } from './invalid-dedup-options-error.js';
export { FilterTooLargeError } from './filter-too-large-error.js';
export { IncompatibleFilterError } from './incompatible-filter-error.js';
export { InvalidSnapshotError } from './invalid-snapshot-error.js';
export { StoreClosedError } from './store-closed-error.js';
export { RedisScriptError } from './redis-script-error.js';
export { RedisUnreachableError } from './redis-unreachable-error.js';
