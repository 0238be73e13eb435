/**
 * A copy of an ioredis / Node error that keeps what helps (name, message, code) and drops the rest: an ioredis reply
 * error carries the command it answered in `command.args`, and for `AUTH` / `HELLO ... AUTH` those are the user
 * name and password, which `console.log(error)` or a crash report would print through `cause`.
 *
 * @param error - anything thrown or emitted
 * @returns an `Error` safe to keep as a `cause`, or undefined for undefined
 */
export function redactedCause(error: unknown): Error | undefined {
  if (error === undefined) return undefined;
  const source = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'non-Error value');
  const copy = new Error(source.message);
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  return copy;
}
