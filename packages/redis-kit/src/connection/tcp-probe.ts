import { connect } from 'node:net';

/**
 * True when a plain TCP connection to the URL's host and port opens within `timeoutMs` (then closed at once). Used
 * only after a `rediss://` first connect timed out, to tell "nothing listens" from "something listens but never
 * finished a TLS handshake".
 *
 * @param url - a `redis://` or `rediss://` URL
 * @param timeoutMs - how long to wait, in milliseconds
 */
export function tcpAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    port = Number(parsed.port || 6379);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answered: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
