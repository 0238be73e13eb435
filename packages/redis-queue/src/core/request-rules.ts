/**
 * The rules a stored request must meet to become a Crawlee `Request`: the predicates of Crawlee 3.18's `Request`
 * constructor (`requestOptionalPredicates` in `@crawlee/core/request.js`, checked with `ow`), plus what this queue
 * requires of every request it stores (an http(s) URL, a non-empty uniqueKey) and what keeps a crawler from
 * crashing or retrying for ever later (whole, non-negative counters; `userData.__crawlee` an object, because
 * Crawlee writes `crawlDepth` and `sessionRotationCount` into it).
 *
 * Checked when a request is stored (the add and update paths: a typed error, nothing written) and again at the
 * moment an entry leaves Redis (someone else may have written it): an entry that breaks a rule goes to the dead
 * letters with the first broken rule as its reason, instead of terminating every worker that takes it.
 */

type Rule = (value: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const string: Rule = (v) => (typeof v === 'string' ? undefined : `must be a string (got ${describe(v)})`);
const boolean: Rule = (v) => (typeof v === 'boolean' ? undefined : `must be a boolean (got ${describe(v)})`);
const object: Rule = (v) => (isObject(v) ? undefined : `must be an object (got ${describe(v)})`);
const count: Rule = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? undefined : `must be a whole number from 0 (got ${describe(v)})`;
const number: Rule = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : `must be a number (got ${describe(v)})`);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Field → rule; fields not listed are not checked (as Crawlee does). */
const RULES: Record<string, Rule> = {
  id: string,
  uniqueKey: (v) => (typeof v === 'string' && v.length > 0 ? undefined : `must be a non-empty string (got ${describe(v)})`),
  method: (v) => (typeof v === 'string' && v.length > 0 ? undefined : `must be a non-empty string (got ${describe(v)})`),
  // JSON cannot hold a Uint8Array, so a stored payload is a string.
  payload: string,
  loadedUrl: (v) => (typeof v === 'string' && parsesAsUrl(v) ? undefined : `must be a URL (got ${describe(v)})`),
  noRetry: boolean,
  retryCount: count,
  sessionRotationCount: count,
  maxRetries: count,
  errorMessages: (v) =>
    Array.isArray(v) && v.every((m) => typeof m === 'string') ? undefined : `must be an array of strings (got ${describe(v)})`,
  headers: object,
  userData: (v) => {
    const problem = object(v);
    if (problem) return problem;
    const internal = (v as Record<string, unknown>).__crawlee;
    return internal === undefined || isObject(internal) ? undefined : `.__crawlee must be an object (got ${describe(internal)})`;
  },
  label: string,
  handledAt: (v) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? undefined : `must be a date string (got ${describe(v)})`),
  keepUrlFragment: boolean,
  useExtendedUniqueKey: boolean,
  skipNavigation: boolean,
  crawlDepth: (v) => number(v) ?? (Number(v) >= 0 ? undefined : `must be 0 or more (got ${describe(v)})`),
  state: (v) => number(v) ?? (Number(v) >= 0 && Number(v) <= 6 ? undefined : `must be from 0 to 6 (got ${describe(v)})`),
};

/**
 * The first rule a request breaks, or undefined when Crawlee can build a `Request` from it and crawl it.
 * Fields that are `undefined` or `null` count as absent (a stored null is dropped on read, as MemoryStorage does).
 *
 * @param request - a request object (a Crawlee `Request`, a request schema, or parsed stored JSON)
 * @returns a reason such as `"retryCount" must be a whole number from 0 (got "3")`, or undefined
 */
export function requestProblem(request: Record<string, unknown>): string | undefined {
  const url = request.url;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !parsesAsUrl(url)) {
    return `"url" must be an http(s) URL (got ${describe(url)})`;
  }
  if (request.uniqueKey === undefined || request.uniqueKey === null) return '"uniqueKey" is missing';
  for (const [field, rule] of Object.entries(RULES)) {
    // Own fields only: what is (or will be) stored. A Crawlee Request's `state`, `crawlDepth`, `label`... are
    // prototype getters over userData and never reach the JSON.
    if (!Object.prototype.hasOwnProperty.call(request, field)) continue;
    const value = request[field];
    if (value === undefined || value === null) continue;
    const problem = rule(value);
    if (problem) return `"${field}" ${problem}`;
  }
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : 'GET';
  const payload = request.payload;
  if (method === 'GET' && payload !== undefined && payload !== null && payload !== '') {
    return 'a GET request cannot have a "payload" (Crawlee\'s Request rejects it)';
  }
  return undefined;
}
