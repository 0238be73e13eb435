import { runConformanceCase, type ConformanceInput } from '../conformance/run-case.js';

/**
 * One output line of `--jsonl` mode for one input line (the conformance input format). A line that is not a JSON
 * object gives `{ id: null, error }`.
 * @param line - one input line
 * @returns the JSON text of the output line
 */
export function jsonlLine(line: string): string {
  let input: ConformanceInput;
  try {
    input = JSON.parse(line) as ConformanceInput;
    if (input === null || typeof input !== 'object' || typeof input.url !== 'string') throw new Error('expected an object with a "url" string');
  } catch (error) {
    return JSON.stringify({ id: null, error: `InvalidInput: ${(error as Error).message}` });
  }
  const out = runConformanceCase(input);
  return JSON.stringify({
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
}
