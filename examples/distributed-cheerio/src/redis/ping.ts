import { Redis } from 'ioredis';

/**
 * True when a Redis answers PING at `url` within `timeoutMs`. One attempt, no reconnect loop, no error events left
 * behind: the caller decides what to do when nothing answers.
 */
export async function pingRedis(url: string, timeoutMs = 1_500): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
