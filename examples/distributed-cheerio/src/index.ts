/** Building blocks of the example, exported for its tests and for anyone who wants to reuse a piece. */
export { resolveOptions, POSTGRES_DOCS_DIR, DEDUP_MODES, type RunOptions, type DedupMode } from './options.js';
export * from './errors/index.js';
export { maskUrl, maskInText } from './mask-credentials.js';
export { buildDemoSiteModel, pageKey, type DemoSiteModel, type DemoFile, type DemoLink } from './demo-site/model.js';
export { writeDemoSite } from './demo-site/write.js';
export { stripTrackingParameters, TRACKING_PARAMETERS } from './demo-site/tracking.js';
export { walkSiteLinks, type LinkWalk } from './site/walk-links.js';
export { serveStaticFolder, type StaticSite } from './coordinator/static-server.js';
export { mergeRecords, type MergedRecords } from './coordinator/merge-records.js';
export type { RunSummary } from './coordinator/summary.js';
export type { PageRecord } from './worker/page-record.js';
