export { ScrapyFingerprintError } from './scrapy-fingerprint-error.js';
export { InvalidUrlError, type InvalidUrlReason } from './invalid-url-error.js';
export { InvalidRequestError } from './invalid-request-error.js';
export { EncodingError } from './encoding-error.js';
export { IdnaError } from './idna-error.js';
