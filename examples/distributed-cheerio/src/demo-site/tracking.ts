/**
 * Query parameters that only say where a click came from. Scrapy's `canonicalize_url` keeps them (so would the
 * fingerprint); the example drops them before fingerprinting, like w3lib's `url_query_cleaner(..., remove=True)`.
 */
export const TRACKING_PARAMETERS: readonly RegExp[] = [/^utm_/i, /^fbclid$/i, /^gclid$/i, /^mc_cid$/i, /^mc_eid$/i];

function isTracking(pair: string): boolean {
  const name = pair.split('=', 1)[0] ?? '';
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    /* keep the raw name */
  }
  return TRACKING_PARAMETERS.some((re) => re.test(decoded));
}

/**
 * The URL without tracking parameters. Works on the raw query string (no re-encoding through URLSearchParams, which
 * would change how the other parameters are escaped and so their fingerprint); drops a `?` left empty.
 */
export function stripTrackingParameters(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return url;
  const pairs = beforeHash.slice(queryAt + 1).split('&');
  const kept = pairs.filter((pair) => !isTracking(pair));
  if (kept.length === pairs.length) return url;
  const base = beforeHash.slice(0, queryAt);
  return (kept.length > 0 ? `${base}?${kept.join('&')}` : base) + fragment;
}
