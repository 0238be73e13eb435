/**
 * Interop harness (private): real Scrapy + scrapy-redis processes and Crawlee workers crawl one generated local site
 * through one Redis, sharing the scrapy-redis dupefilter and start-URL feed.
 * @packageDocumentation
 */
export { SiteModel, type SiteModelOptions } from './site/site-model.js';
export { startSiteServer, type SiteServer, type SiteServerOptions } from './site/site-server.js';
export { AccessLog, fleetOf, type AccessLogEntry } from './site/access-log.js';
export { fetchesByIdentity, pageIdentity, reachable } from './site/page-identity.js';
export { FleetProcess } from './process/fleet-process.js';
export {
  checkScrapy,
  markSeenByScrapy,
  spawnScrapy,
  SCRAPY_PYTHON,
  SPIDER_FILE,
  type ScrapySetup,
  type SpawnScrapyOptions,
} from './scrapy/spawn-scrapy.js';
export { locateScrapyRedisSrc, type ScrapyRedisLocation } from './scrapy/locate-scrapy-redis.js';
export { crawleeWorkerEntry, spawnCrawlee } from './crawlee/spawn-crawlee.js';
export { scrapyRequestUrl } from './crawlee/scrapy-request-url.js';
export { FLEET_FINGERPRINT } from './crawlee/fleet-fingerprint.js';
export type { WorkerOptions } from './crawlee/worker-options.js';
