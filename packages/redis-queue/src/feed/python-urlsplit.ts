// Python 3.11's `urlunsplit(urlsplit(url)._replace(query=q))` for an absolute http(s) URL. Scrapy's Request passes
// every URL through w3lib's safe_url_string, which splits and joins it this way (a lower-case scheme, no empty `?` or
// `#`, a lower-case host, no empty port), and FormRequest builds a GET request from form data the same way: the URL's own query is REPLACED (not
// extended), the fragment kept, and an empty query drops the `?`.

/** w3lib's netloc: user info kept, host lower-cased (its IDNA step), an empty port dropped, a port as a number. */
function safeNetloc(netloc: string): string {
  const at = netloc.lastIndexOf('@');
  const userinfo = at >= 0 ? netloc.slice(0, at + 1) : '';
  const hostport = netloc.slice(at + 1);
  const colon = hostport.startsWith('[') ? hostport.indexOf(':', hostport.indexOf(']')) : hostport.lastIndexOf(':');
  const host = (colon >= 0 ? hostport.slice(0, colon) : hostport).toLowerCase();
  const port = colon >= 0 ? hostport.slice(colon + 1) : '';
  return `${userinfo}${host}${/^[0-9]+$/.test(port) ? `:${Number(port)}` : port === '' ? '' : `:${port}`}`;
}

/**
 * @param url - an absolute URL with a `scheme://` prefix
 * @param query - the new query, already encoded; undefined keeps the URL's own
 * @returns the URL split and joined again, with its query replaced when one is given
 */
export function replaceQuery(url: string, query?: string): string {
  const colon = url.indexOf(':');
  const scheme = url.slice(0, colon).toLowerCase();
  let rest = url.slice(colon + 1);
  let netloc = '';
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = safeNetloc(end < 0 ? rest.slice(2) : rest.slice(2, 2 + end));
    rest = end < 0 ? '' : rest.slice(2 + end);
  }
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  const path = question >= 0 ? rest.slice(0, question) : rest;
  query ??= question >= 0 ? rest.slice(question + 1) : '';
  let out = path;
  if (netloc !== '' || !out.startsWith('//')) {
    if (out !== '' && !out.startsWith('/')) out = `/${out}`;
    out = `//${netloc}${out}`;
  }
  out = `${scheme}:${out}`;
  if (query !== '') out += `?${query}`;
  if (fragment !== '') out += `#${fragment}`;
  return out;
}
