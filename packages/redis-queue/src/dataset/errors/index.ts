export { InvalidDatasetItemError } from './invalid-dataset-item-error.js';
export { DatasetItemUnreadableError } from './dataset-item-unreadable-error.js';
export { DatasetNotFoundError } from './dataset-not-found-error.js';
