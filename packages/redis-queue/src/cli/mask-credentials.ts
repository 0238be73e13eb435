/**
 * Masks passwords in every Redis URL of a text: `redis://user:secret@host` → `redis://user:***@host`,
 * `rediss://secret@host` → `rediss://***@host`. Every line the CLI prints goes through it.
 *
 * @param text - any text
 * @returns the text with passwords replaced by `***`
 */
export function maskCredentials(text: string): string {
  return text
    .replace(/(rediss?:\/\/)([^:@/\s]*):([^@/\s]*)@/gi, '$1$2:***@')
    .replace(/(rediss?:\/\/)([^:@/\s]+)@/gi, (all, scheme: string, user: string) => (user === '***' ? all : `${scheme}***@`));
}
