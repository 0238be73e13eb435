import { readFileSync } from 'node:fs';

/**
 * Vite plugin that loads `*.lua` files as a default-exported string, the same as tsup's `loader: { '.lua': 'text' }`
 * does at build time, so tests run the Lua the package ships.
 */
export function luaAsText(): { name: string; load(id: string): string | null } {
  return {
    name: 'crawlee-distributed:lua-as-text',
    load(id: string) {
      if (!id.endsWith('.lua')) return null;
      return `export default ${JSON.stringify(readFileSync(id, 'utf8'))};`;
    },
  };
}
