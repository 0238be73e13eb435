/**
 * The URL with its credentials replaced by `***` (password, and a user name that carries a secret such as an ACL
 * token), for messages and logs: credentials are never printed. A string that is not a URL is returned with
 * everything before a last `@` masked, so `user:secret@host` is not leaked either.
 *
 * @param url - a Redis URL, e.g. `redis://:secret@127.0.0.1:6379/0`
 * @returns e.g. `redis://:***@127.0.0.1:6379/0`
 */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    else if (parsed.username) parsed.username = '***';
    return parsed.toString();
  } catch {
    const at = url.lastIndexOf('@');
    return at === -1 ? url : `***${url.slice(at)}`;
  }
}
