import { createServer } from 'node:net';

/**
 * Asks the kernel for a free TCP port on 127.0.0.1 (bind to port 0, read it, close).
 * The port may be taken again by the time the caller binds it; callers retry on EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port the kernel gave'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
