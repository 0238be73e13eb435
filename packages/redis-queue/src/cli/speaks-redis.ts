import { connect } from 'node:net';

/** The first byte of every RESP2 and RESP3 reply (`+PONG`, `-NOAUTH ...`, `:1`, `$`, `*`, `_`, `%`, ...). */
const RESP_FIRST_BYTES = new Set('+-:$*_,#!=(%~>|'.split(''));

/**
 * Sends an inline `PING` to a `redis://` address and looks at the first byte of the answer: the check the example's
 * coordinator makes before it trusts a port, here only after the first connect failed, to tell "no Redis there"
 * from "something else listens there". A `rediss://` URL is not probed (its answer is a TLS handshake).
 *
 * @param url - a `redis://` URL
 * @param timeoutMs - how long to wait for the connection and the answer, in milliseconds (default 1000)
 * @returns false when the server answered with something that is not RESP, or closed the connection without a
 *   word; true when the answer is RESP; undefined when nothing could be told (no connection, no answer in time)
 */
export function speaksRedis(url: string, timeoutMs = 1000): Promise<boolean | undefined> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:') return Promise.resolve(undefined);
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number(parsed.port || 6379);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let connected = false;
    const done = (answer: boolean | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('connect', () => {
      connected = true;
      socket.write('PING\r\n');
    });
    socket.once('data', (chunk: Buffer) => done(RESP_FIRST_BYTES.has(String.fromCharCode(chunk[0]!))));
    socket.once('error', () => done(connected ? false : undefined));
    socket.once('end', () => done(connected ? false : undefined));
  });
}
