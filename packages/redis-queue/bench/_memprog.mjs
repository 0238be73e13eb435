import { BasicCrawler, Configuration, MemoryStorage, RequestQueue, log } from 'crawlee';
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: false });
const storageClient = new MemoryStorage({ persistStorage: false, writeMetadata: false });
const queue = await RequestQueue.open('x', { storageClient, config });
const N = +process.argv[2];
await queue.addRequests(Array.from({ length: N }, (_, i) => ({ url: `http://localhost/b/${i}` })));
let handled = 0; const marks = []; const t0 = Date.now(); let last = 0, lastT = t0;
const calls = {};
const c = queue.client;
for (const m of ['listAndLockHead','prolongRequestLock','getRequest','updateRequest','deleteRequestLock','listHead']) {
  const orig = c[m].bind(c); calls[m] = {n:0, ms:0};
  c[m] = async (...a) => { const s = performance.now(); try { return await orig(...a); } finally { calls[m].n++; calls[m].ms += performance.now()-s; } };
}
const iv = setInterval(() => { const now = Date.now(); console.log(`${((now-t0)/1000).toFixed(0)}s handled=${handled} rate=${((handled-last)/((now-lastT)/1000)).toFixed(0)}/s`, JSON.stringify(Object.fromEntries(Object.entries(calls).map(([k,v])=>[k, v.n+':'+(v.ms/Math.max(v.n,1)).toFixed(2)])))); last = handled; lastT = now; }, 5000);
const crawler = new BasicCrawler({ requestQueue: queue, minConcurrency: 10, maxConcurrency: 10, useSessionPool: false, requestHandler: async () => { handled++; if (handled % 1000 === 0) marks.push([handled, Date.now()-t0, JSON.stringify(Object.fromEntries(Object.entries(calls).map(([k,v])=>[k, v.n])))]); } }, config);
setTimeout(() => crawler.stop(), +process.argv[3]*1000);
await crawler.run();
clearInterval(iv);
console.log(marks.map(m=>m.join(" ")).join("\n")); console.log("total", handled, (Date.now()-t0)/1000);
process.exit(0);
