import { readFileSync } from 'node:fs';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueKeys } from '../../src/core/keys.js';
import { commandName, runScript } from '../../src/core/scripts.js';
import { PACKAGE_VERSION } from '../../src/core/version.js';

let server: RedisServerHandle;
beforeAll(async () => {
  server = await startRedisServer(); // no AOF: a restart comes back empty, script cache included
});
afterAll(async () => {
  await server.destroy();
});

describe('script registry (the kit, used by this package)', () => {
  it('names commands after the version in package.json, injected at build time', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(PACKAGE_VERSION).toBe(version);
    expect(commandName('addRequests')).toBe(`rqAddRequests_${version.replace(/\W/g, '_')}`);
  });

  it('EVALSHA falls back to EVAL after a restart emptied the script cache (NOSCRIPT)', async () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined); // refused while the server restarts; ioredis retries
    try {
      const keys = queueKeys('registry', 'q');
      expect(await runScript(redis, 'createQueue', [keys.meta], ['q', 'q', '0', '', 'key', '48', '', '', '', ''])).toEqual([1, '', '2']);
      const cached = (await redis.script('EXISTS', ...scriptShas(redis))) as number[];
      expect(cached.some((v) => v === 1)).toBe(true);

      await server.kill();
      await server.restart();
      expect(await redis.script('EXISTS', ...scriptShas(redis))).toEqual(scriptShas(redis).map(() => 0));
      // The same call again: EVALSHA answers NOSCRIPT, ioredis resends the script with EVAL, the call succeeds.
      expect(await runScript(redis, 'createQueue', [keys.meta], ['q', 'q', '0', '', 'key', '48', '', '', '', ''])).toEqual([1, '', '2']);
      expect(await runScript(redis, 'createQueue', [keys.meta], ['q', 'q', '0', '', 'key', '48', '', '', '', ''])).toEqual([0, '', '2']);
    } finally {
      redis.disconnect();
    }
  });
});

/** SHA-1s ioredis uses for the scripts it defined on this connection. */
function scriptShas(redis: Redis): string[] {
  const scripts = (redis as unknown as { scriptsSet: Record<string, { sha: string }> }).scriptsSet;
  return Object.values(scripts).map((script) => script.sha);
}
