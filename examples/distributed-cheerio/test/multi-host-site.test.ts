import { afterEach, describe, expect, it } from 'vitest';
import { startMultiHostSite, type MultiHostSite } from './helpers/multi-host-site.js';

let site: MultiHostSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function get(url: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(url);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

describe('the multi-host loopback site of the politeness tests', () => {
  it('answers on 127.0.0.2, 127.0.0.3, ...; pages link within the host and to the next host', async () => {
    site = await startMultiHostSite({ hosts: 3, pagesPerHost: (h) => h + 2 });
    expect(site.origins.map((o) => new URL(o).hostname)).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
    expect(site.pageUrls).toHaveLength(2 + 3 + 4);
    const front = await get(`${site.origins[1]}index.html`);
    expect(front.status).toBe(200);
    expect(front.body).toContain('href="/p2.html"');
    expect(front.body).toContain(`href="${site.origins[2]}index.html"`);
    expect((await get(`${site.origins[0]}p9.html`)).status).toBe(404);
    expect(site.hits.map((h) => [h.host, h.path, h.status])).toEqual([
      [1, '/index.html', 200],
      [0, '/p9.html', 404],
    ]);
  });

  it('records arrival, finish and in-flight requests per host; slow pages take their time', async () => {
    site = await startMultiHostSite({ hosts: 2, pagesPerHost: 4, delayMs: (h) => (h === 0 ? 150 : 0) });
    const s = site;
    await Promise.all([1, 2, 3].map((i) => get(`${s.origins[0]}p${i}.html`)).concat([get(`${s.origins[1]}p1.html`)]));
    expect(s.maxInFlight()).toEqual([3, 1]);
    for (const hit of s.hitsOf(0)) expect(hit.finishedAt - hit.arrivedAt).toBeGreaterThanOrEqual(140);
  });

  it('throttles one host with 429 + Retry-After for a while, after its first requests', async () => {
    site = await startMultiHostSite({ hosts: 2, pagesPerHost: 3, throttle: { host: 1, afterRequests: 1, forMs: 300, retryAfter: '2' } });
    const s = site;
    expect((await get(`${s.origins[1]}index.html`)).status).toBe(200);
    expect(await get(`${s.origins[1]}p1.html`)).toMatchObject({ status: 429, retryAfter: '2' });
    expect((await get(`${s.origins[0]}p1.html`)).status).toBe(200); // only that host
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get(`${s.origins[1]}p1.html`)).status).toBe(200);
  });
});
