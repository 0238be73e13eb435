/**
 * Credentials never reach a log line, an error message, the summary or an output file: every URL the example prints
 * or persists goes through {@link maskUrl}. (crawlee-redis-queue masks only inside its own errors; a shared helper
 * belongs in the packages' Redis kit.)
 */

/** What a password is replaced with. */
export const MASK = '***';

/**
 * The URL with its password (and, for non-Redis URLs, its user name too) replaced by `***`. A string that does not
 * parse as a URL is masked by pattern (`scheme://user:password@`), so a malformed `--redis` value is safe to echo.
 *
 * @param url - any URL (`redis://:secret@host:6379/2`, `https://user:secret@site/`)
 * @returns the same URL without secrets
 */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '' && (parsed.username === '' || /^rediss?:$/.test(parsed.protocol))) return url;
    if (parsed.password !== '') parsed.password = MASK;
    // A Redis ACL user name is not a secret (and tells which user failed); an HTTP user name may be a token.
    if (!/^rediss?:$/.test(parsed.protocol) && parsed.username !== '') parsed.username = MASK;
    return parsed.href;
  } catch {
    return maskInText(url);
  }
}

/**
 * Masks every `scheme://user:password@` in free text (error messages of libraries, a raw argument).
 *
 * @param text - any text
 * @returns the text with the credentials of every URL in it replaced
 */
export function maskInText(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*)(:[^\s/@]*)?@/gi, (_all, scheme: string, user: string, pass?: string) =>
    pass !== undefined ? `${scheme}${/^rediss?:\/\//i.test(scheme) ? user : user === '' ? '' : MASK}:${MASK}@` : `${scheme}${/^rediss?:\/\//i.test(scheme) ? user : MASK}@`,
  );
}
