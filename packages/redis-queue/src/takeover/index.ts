/** Takeover of a running scrapy-redis crawl's frontier. */
export { takeOverScrapyRequests } from './take-over-scrapy-requests.js';
export { readScrapyRequest, type ScrapyRequestDict, type ScrapySerializer } from './scrapy-request-dict.js';
export { toCrawleeRequest, takeoverUniqueKey, type ScrapyTakeoverRequest } from './to-crawlee-request.js';
export { checkTakeoverOptions, type ScrapyQueueClass, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from './takeover-options.js';
export { unpickle, type PyValue } from './unpickle.js';
