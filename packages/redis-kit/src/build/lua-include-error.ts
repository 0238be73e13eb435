/**
 * A Lua script cannot be assembled: an `--- @include` names a fragment that exists in none of the include folders,
 * or includes form a cycle. Thrown at build time (tsup/esbuild) and when vitest loads the script, never at run time.
 */
export class LuaIncludeError extends Error {
  /**
   * @param message - which directive, in which file and line, and what to do
   */
  constructor(message: string) {
    super(message);
    this.name = 'LuaIncludeError';
  }
}
