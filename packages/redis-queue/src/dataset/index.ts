// The Redis dataset: results of every worker in one place.
export { RedisDatasetClient } from './redis-dataset-client.js';
export { RedisDatasetCollectionClient } from './redis-dataset-collection-client.js';
export { exportDataset, type ExportDatasetOptions, type ExportProgress } from './export-dataset.js';
export { datasetKeys, datasetIndexKey, type DatasetKeys } from './dataset-keys.js';
export * from './errors/index.js';
