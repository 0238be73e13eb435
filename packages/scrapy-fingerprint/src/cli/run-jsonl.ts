import { runConformanceCase, type ConformanceInput, type ConformanceOptions } from '../conformance/run-case.js';

/** One `--jsonl` output line and whether its input line was valid (an invalid one makes the CLI exit 1). */
export interface JsonlResult {
  /** The JSON text of the output line. */
  text: string;
  /** False when the input line was not a JSON object with a `url` string. */
  valid: boolean;
}

/**
 * One output line of `--jsonl` mode for one input line (the conformance input format). A line that is not JSON gives
 * `{ id: null, error }`; an object without a `url` string keeps its `id` (`{ id, error }`). Both are `valid: false`.
 * A URL Scrapy rejects is a valid case: its `error` field is the expected output, not a failure of the CLI.
 * @param line - one input line
 * @param options - which Scrapy `Request()` to emulate (validated by the caller)
 * @returns the output line and whether the input was valid
 */
export function jsonlLine(line: string, options: ConformanceOptions = {}): JsonlResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return invalid(null, `not a JSON line (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return invalid(null, 'expected a JSON object with a "url" string');
  const rawId = (parsed as { id?: unknown }).id;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (typeof (parsed as { url?: unknown }).url !== 'string') return invalid(id, 'expected a "url" string');
  const input = parsed as ConformanceInput;
  let out: ReturnType<typeof runConformanceCase>;
  try {
    out = runConformanceCase(input, options);
  } catch (error) {
    // e.g. headers or body of the wrong type: still one line, with the input's id.
    return invalid(id, error instanceof Error ? error.message : String(error));
  }
  const text = JSON.stringify({
    id: out.id,
    canonical_url: out.canonical_url,
    safe_url: out.safe_url,
    request_url: out.request_url,
    fp_url: out.fp_url,
    fp27: out.fp27,
    fp26: out.fp26,
    fp_redis: out.fp_redis,
    error: out.error,
    request_method: out.request_method,
    fp27_json: out.fp27_json,
    canonical_error: out.canonical_error,
    safe_url_error: out.safe_url_error,
  });
  return { text, valid: true };
}

function invalid(id: string | number | null, message: string): JsonlResult {
  return { text: JSON.stringify({ id, error: `InvalidInput: ${message}` }), valid: false };
}
