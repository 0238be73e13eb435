import { DedupError } from './dedup-error.js';

/** The store was used after `close()`. */
export class StoreClosedError extends DedupError {
  constructor(store: string) {
    super('STORE_CLOSED', `${store} is closed. Create a new store instead of reusing a closed one.`);
  }
}
