// Prototype of the compact stored request (format 2): only what differs from Crawlee's defaults, the id never
// (it is the hash field), uniqueKey only when it differs from the URL, the URL scheme as one character.
//
//   record  = tag rest-of-url "\n" userData-JSON [ "\n" other-fields-JSON ]
//   tag     = the format and the URL scheme in one byte: "S" format 2 + https://, "H" format 2 + http://,
//             "V" format 2 + the URL verbatim
//   userData-JSON is empty for {}; other-fields-JSON holds every remaining field whose value is not the default
//   (method GET, noRetry false, retryCount 0, errorMessages [], headers {}, payload undefined, ...)
// A 0.1 entry always starts with "{", so the first byte tells the format.
const DEFAULTS = { method: 'GET', noRetry: false, retryCount: 0 };
const isEmpty = (v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

export function encodeV2(request) {
  // The id is the hash field or element prefix, never part of the record.
  const { id: _id, url, uniqueKey, userData, ...rest } = request;
  const other = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k in DEFAULTS ? DEFAULTS[k] === v : isEmpty(v)) continue;
    other[k] = v;
  }
  if (uniqueKey !== url) other.uniqueKey = uniqueKey;
  let head;
  if (url.startsWith('https://')) head = 'S' + url.slice(8);
  else if (url.startsWith('http://')) head = 'H' + url.slice(7);
  else head = 'V' + url;
  const ud = isEmpty(userData) ? '' : JSON.stringify(userData);
  return `${head}\n${ud}${Object.keys(other).length ? '\n' + JSON.stringify(other) : ''}`;
}

export function decodeV2(record, id) {
  const tag = record[0];
  if (tag !== 'S' && tag !== 'H' && tag !== 'V') throw new Error(`not a format-2 record: ${record.slice(0, 20)}`);
  const nl = record.indexOf('\n');
  const rest = record.slice(1, nl);
  const url = tag === 'S' ? 'https://' + rest : tag === 'H' ? 'http://' + rest : rest;
  const nl2 = record.indexOf('\n', nl + 1);
  const ud = record.slice(nl + 1, nl2 < 0 ? undefined : nl2);
  const other = nl2 < 0 ? {} : JSON.parse(record.slice(nl2 + 1));
  return { id, url, uniqueKey: other.uniqueKey ?? url, method: 'GET', noRetry: false, retryCount: 0, errorMessages: [], headers: {}, userData: ud ? JSON.parse(ud) : {}, ...other };
}
