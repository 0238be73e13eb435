import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { assertKeyPart } from './keys.js';

/**
 * Checks the name of a shared queue, wherever one is opened or created (openRedisRequestQueue, the CLI's
 * seed command): one rule, so the CLI never creates a queue the library then refuses to open.
 *
 * @param name - the queue name
 * @throws {@link InvalidOptionsError} for an empty name, `'default'` (Crawlee drops that queue on a second
 *   `crawler.run()`), leading or trailing whitespace, control characters (a newline, a tab), or braces
 */
export function assertQueueName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new InvalidOptionsError('openRedisRequestQueue needs a queue name');
  if (name === 'default') {
    throw new InvalidOptionsError("a shared Redis queue cannot be named 'default': Crawlee drops that queue on a second crawler.run(); pick a crawl name");
  }
  if (name.trim() !== name) {
    throw new InvalidOptionsError(`a queue name must not start or end with whitespace (got ${JSON.stringify(name)}): it would be a different queue than the one typed; remove the spaces`);
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new InvalidOptionsError(`a queue name must not contain control characters such as newlines or tabs (got ${JSON.stringify(name)})`);
  }
  assertKeyPart('queue name', name);
}
