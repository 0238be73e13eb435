// The scale benchmark's workload: 70-character URLs spread over 1,000 hosts, `userData: { label, depth }`, built as Crawlee
// `Request`s (so the stored JSON is what a crawler stores: every default field Crawlee sets).
import { Request } from 'crawlee';

export const URL_LENGTH = 70;
export const HOSTS = 1000;

/** The i-th URL: exactly 70 characters, host `www.h<NNNN>.example.com`, a numbered path and a query. */
export function urlOf(i) {
  const host = `https://www.h${String(i % HOSTS).padStart(4, '0')}.example.com`;
  const head = `${host}/catalog/item-${String(i).padStart(10, '0')}?ref=`;
  return head + 'x'.repeat(URL_LENGTH - head.length);
}

/** The i-th request as Crawlee builds it (`new Request({ url, userData })`). */
export function requestOf(i) {
  return new Request({ url: urlOf(i), userData: { label: i % 10 === 0 ? 'LIST' : 'DETAIL', depth: i % 5 } });
}

/** Requests [from, to) as plain request objects (`{ ...request }`), the shape a client's batchAddRequests takes. */
export function requestsBetween(from, to, extra = {}) {
  const out = [];
  for (let i = from; i < to; i++) out.push({ ...requestOf(i), ...extra });
  return out;
}
