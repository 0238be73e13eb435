import { KeyTypeError } from './key-type-error.js';

/** `{<prefix>:rq:<name>}` or `{<prefix>:ds:<name>}` at the start of a key. */
const TAG = /^\{(.*):(rq|ds):([^}]*)\}/;

/** Redis's reply to a command on a key of another type. */
const WRONGTYPE = /\bWRONGTYPE\b/;

/** The keys a failed command named, from what ioredis attaches to a reply error (`command = { name, args }`):
 * a script's KEYS (`EVALSHA sha numkeys key...`), else the first argument. */
function keysOf(error: unknown): string[] {
  const sent = (error as { command?: { name?: unknown; args?: unknown[] } }).command;
  const args = Array.isArray(sent?.args) ? sent.args : [];
  if (typeof sent?.name === 'string' && /^eval/i.test(sent.name)) return args.slice(2, 2 + Number(args[1] ?? 0)).filter((a): a is string => typeof a === 'string');
  return typeof args[0] === 'string' ? [args[0]] : [];
}

/** The error or one of its causes whose message is a WRONGTYPE reply (a script error wraps the reply). */
function wrongTypeReply(error: unknown): unknown {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (WRONGTYPE.test(e.message)) return e;
  return undefined;
}

/**
 * The one place a `WRONGTYPE` reply becomes a typed error: it names the queue or dataset (read from the hash tag
 * `{<prefix>:rq:<name>}` / `{<prefix>:ds:<name>}` of the key the command sent), the key when one was sent, and how
 * to inspect and remove it.
 *
 * @param error - what a command or script rejected with
 * @returns the {@link KeyTypeError}, or undefined when `error` is not a WRONGTYPE reply
 */
export function wrongTypeErrorOf(error: unknown): KeyTypeError | undefined {
  if (error instanceof KeyTypeError) return error;
  const reply = wrongTypeReply(error);
  if (reply === undefined) return undefined;
  const keys = keysOf(reply).length > 0 ? keysOf(reply) : keysOf(error);
  const tagged = keys.find((key) => TAG.test(key));
  return keyTypeError(keys.length === 1 ? keys[0] : undefined, tagged, error);
}

/**
 * The {@link KeyTypeError} for a key of another type: names the queue or dataset of the key's hash tag, the key,
 * and how to inspect and remove it.
 *
 * @param key - the key of the wrong type, when known
 * @param tagged - a key of the queue or dataset (default: `key`)
 * @param cause - the WRONGTYPE reply, if any
 * @returns the error
 */
export function keyTypeError(key: string | undefined, tagged: string | undefined = key, cause?: unknown): KeyTypeError {
  const m = tagged === undefined ? null : TAG.exec(tagged);
  const holds = key !== undefined ? `key ${key} holds` : 'one of its keys holds';
  const inspect = key !== undefined ? `inspect it with \`redis-cli TYPE '${key}'\`` : 'inspect its keys with `redis-cli TYPE <key>`';
  const options = cause === undefined ? undefined : { cause };
  if (m?.[2] === 'rq') {
    const [, prefix, , name] = m;
    const drop = `crawlee-redis drop ${name}${prefix === 'crawlee' ? '' : ` --key-prefix ${prefix}`} --yes`;
    return new KeyTypeError(
      `queue "${name}": ${holds} another Redis type than the queue writes there (WRONGTYPE: something else wrote it); ${inspect}, and \`${drop}\` removes the queue's keys`,
      key,
      options,
    );
  }
  if (m?.[2] === 'ds') {
    return new KeyTypeError(
      `dataset "${m[3]}": ${holds} another Redis type than a dataset writes there (WRONGTYPE: something else wrote it); ${inspect}, and delete it (redis-cli DEL) if it is not a dataset`,
      key,
      options,
    );
  }
  return new KeyTypeError(`${key !== undefined ? `key ${key} holds` : 'a key holds'} another Redis type than expected (WRONGTYPE); ${inspect}`, key, options);
}
