/**
 * A package's table of script reply codes (`src/lua/reply-codes.json`), the one place their numbers and strings
 * are written. Lua gets them through `--- @include "reply-codes"` (rendered by {@link renderReplyCodesLua}),
 * TypeScript by importing the JSON, so no number is typed twice.
 */
export interface ReplyCodeTable {
  /** Result codes by group: `{ "add": { "ADDED": 0 } }` becomes the Lua constant `ADD_ADDED = 0`. */
  results: Record<string, Record<string, number>>;
  /** Error reply prefixes: `{ "NOT_FOUND": "RQ_NOT_FOUND" }` becomes `ERR_NOT_FOUND = 'RQ_NOT_FOUND'`; a script
   * replies `redis.error_reply(ERR_NOT_FOUND .. ' detail')` and one TS function maps each to an error class. */
  errors: Record<string, string>;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;

function upper(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/**
 * Renders the table as Lua `local` constants.
 *
 * @param table - the parsed JSON
 * @param source - the JSON's path, for messages and the header comment
 * @returns Lua source
 * @throws Error when a name is not an identifier, a result is not an integer, or an error code is not `UPPER_CASE`
 */
export function renderReplyCodesLua(table: ReplyCodeTable, source: string): string {
  const lines = [`-- Reply codes, generated at build time from ${source.replace(/^.*\/packages\//, 'packages/')}; edit the JSON, not this.`];
  for (const [group, codes] of Object.entries(table.results ?? {})) {
    for (const [name, value] of Object.entries(codes)) {
      if (!NAME.test(group) || !NAME.test(name) || !Number.isSafeInteger(value)) {
        throw new Error(`${source}: results.${group}.${name} must be an identifier with an integer value (got ${JSON.stringify(value)})`);
      }
      lines.push(`local ${upper(group)}_${upper(name)} = ${value}`);
    }
  }
  for (const [name, code] of Object.entries(table.errors ?? {})) {
    if (!NAME.test(name) || typeof code !== 'string' || !ERROR_CODE.test(code)) {
      throw new Error(`${source}: errors.${name} must be an UPPER_CASE error code (got ${JSON.stringify(code)})`);
    }
    lines.push(`local ERR_${upper(name)} = '${code}'`);
  }
  return `${lines.join('\n')}\n`;
}
