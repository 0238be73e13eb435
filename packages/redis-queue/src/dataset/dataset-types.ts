import type { StorageClient } from 'crawlee';

// `crawlee` re-exports StorageClient but not the dataset client interfaces; derive them so `crawlee` stays the only peer.

/** Crawlee's `DatasetClient`. */
export type DatasetClient = ReturnType<StorageClient['dataset']>;
/** Crawlee's `DatasetCollectionClient`. */
export type DatasetCollectionClient = ReturnType<StorageClient['datasets']>;
/** Crawlee's `DatasetInfo`. */
export type DatasetInfo = NonNullable<Awaited<ReturnType<DatasetClient['get']>>>;
/** Crawlee's `DatasetClientListOptions`. */
export type DatasetListOptions = NonNullable<Parameters<DatasetClient['listItems']>[0]>;
