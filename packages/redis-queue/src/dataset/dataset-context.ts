import type { ConnectionHandle } from '../core/connection.js';

/** What every Redis dataset client of one storage client shares. */
export interface DatasetContext {
  readonly connection: ConnectionHandle;
  readonly keyPrefix: string;
}
