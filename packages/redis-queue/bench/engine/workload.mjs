// The requests of bench:engine. Deterministic, so every build and the scrapy-redis driver see the same URLs.
//
//   shaped     https://www.example.com/category/<n>/item-<j>?ref=list&page=<k>: two query parameters out of order,
//              so Crawlee's normalized uniqueKey (query sorted) differs from the URL and the record carries it
//   plain      the same URLs with the query already sorted (?page=<k>&ref=list): uniqueKey equals the URL
//   realistic  shared/workloads/realistic-requests.mjs of the workspace (5,000 hosts, Zipf-like, 0-4 query
//              parameters, tracking parameters), when that file is there
// Every request carries userData { label, depth }, as a crawler's would.
import { pathToFileURL } from 'node:url';
import { sharedPath } from './shared-dir.mjs';

const REALISTIC_DIR = sharedPath('workloads');
const REALISTIC = REALISTIC_DIR && `${REALISTIC_DIR}/realistic-requests.mjs`;

/** userData of request `i`: one list page in ten, depths 0-5. */
const userDataOf = (i) => ({ label: i % 10 === 0 ? 'LIST' : 'DETAIL', depth: i % 6 });

/** @param i - request index @param sortedQuery - the query in Crawlee's normalized order (uniqueKey = URL) */
function shapedUrl(i, sortedQuery) {
  const n = i % 97;
  const k = 1 + (i % 40);
  return sortedQuery
    ? `https://www.example.com/category/${n}/item-${i}?page=${k}&ref=list`
    : `https://www.example.com/category/${n}/item-${i}?ref=list&page=${k}`;
}

let realistic;
async function realisticModule() {
  if (!REALISTIC)
    throw new Error(
      'the realistic workload is missing: no shared/workloads/realistic-requests.mjs above this folder',
    );
  realistic ??= await import(pathToFileURL(REALISTIC).href);
  return realistic;
}

/** Whether the realistic workload file is there (its rows are skipped otherwise). */
export const hasRealistic = () => REALISTIC !== undefined;

/**
 * `count` requests of a workload, from index `start`.
 * @param kind - 'shaped' | 'plain' | 'realistic'
 * @returns plain request objects `{ url, userData }` (no uniqueKey: Crawlee or the fingerprint sets it)
 */
export async function requestsOf(kind, count, start = 0) {
  if (kind === 'realistic') {
    const { realisticUrl } = await realisticModule();
    return Array.from({ length: count }, (_, x) => ({
      url: realisticUrl(start + x),
      userData: userDataOf(start + x),
    }));
  }
  if (kind !== 'shaped' && kind !== 'plain')
    throw new Error(`unknown workload ${kind}: use shaped, plain or realistic`);
  return Array.from({ length: count }, (_, x) => ({
    url: shapedUrl(start + x, kind === 'plain'),
    userData: userDataOf(start + x),
  }));
}
