import { decodeUtf8Replace, encodeText } from '../python/codecs.js';
import { quotePlusBinary, unquoteBinary } from '../python/quote.js';
import { urlparse, urlsplit, urlunparse, urlunsplit } from '../python/urlsplit.js';

const ESCAPED_FRAGMENT = '_escaped_fragment_';

/** Python `unquote(str)` (UTF-8, errors replaced), on the ASCII text a safe URL consists of. */
function unquote(s: string): string {
  // eslint-disable-next-line no-control-regex -- Python and w3lib define these sets by C0 code points
  return s.replace(/[\x00-\x7f]+/g, (run) => decodeUtf8Replace(unquoteBinary(run)));
}

/**
 * Scrapy's `escape_ajax` (2.12 and older): a `#!` fragment becomes the `_escaped_fragment_` query argument (Google's old AJAX
 * crawling scheme), through w3lib 2.4.1 `add_or_replace_parameter`, i.e. stdlib `parse_qsl` (`&` only, UTF-8 with
 * replacement) and `urlencode`. Scrapy 2.6-2.11 hashed this URL in the legacy fingerprint; Scrapy 2.13+ no longer
 * rewrites it.
 * @param url - a URL already made safe by `safeUrlString`
 * @returns the rewritten URL, or `url` itself when its fragment does not start with `!`
 */
export function escapeAjax(url: string): string {
  if (!url.includes('#')) return url;
  const p = urlparse(url);
  if (!p.fragment.startsWith('!')) return url;
  const defrag = urlunparse(p.scheme, p.netloc, p.path, p.params, p.query, '');
  const value = p.fragment.slice(1);

  const parts = urlsplit(defrag);
  const args: [string, string][] = [];
  let replaced = false;
  for (const nameValue of parts.query ? parts.query.split('&') : []) {
    if (!nameValue) continue;
    const eq = nameValue.indexOf('=');
    const name = unquote((eq >= 0 ? nameValue.slice(0, eq) : nameValue).replace(/\+/g, ' '));
    const v = eq >= 0 ? unquote(nameValue.slice(eq + 1).replace(/\+/g, ' ')) : '';
    if (name !== ESCAPED_FRAGMENT) args.push([name, v]);
    else if (!replaced) {
      args.push([name, value]);
      replaced = true;
    }
  }
  if (!replaced) args.push([ESCAPED_FRAGMENT, value]);
  const query = args
    .map(([k, v]) => quotePlusBinary(encodeText(k, 'utf-8')) + '=' + quotePlusBinary(encodeText(v, 'utf-8')))
    .join('&');
  return urlunsplit(parts.scheme, parts.netloc, parts.path, query, parts.fragment);
}
