import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { LockLostError } from './lock-lost-error.js';
import { mapScriptError } from './map-script-error.js';
import { RedisScriptError } from './redis-script-error.js';
import { RedisUnreachableError } from './redis-unreachable-error.js';
import { RequestAlreadyHandledError } from './request-already-handled-error.js';
import { RequestNotFoundError } from './request-not-found-error.js';

describe('mapScriptError', () => {
  it('maps the error replies of real Lua scripts to typed errors with codes', async () => {
    const redis = new Redis(inject('redisUrl'));
    try {
      const reply = async (code: string) =>
        redis.eval(`return redis.error_reply('${code} request abc')`, 0).then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(mapScriptError(await reply('RQ_NOT_FOUND'), 'q')).toBeInstanceOf(RequestNotFoundError);
      expect(mapScriptError(await reply('RQ_HANDLED'), 'q')).toBeInstanceOf(RequestAlreadyHandledError);
      const notLocked = mapScriptError(await reply('RQ_NOT_LOCKED'), 'q');
      expect(notLocked).toBeInstanceOf(LockLostError);
      expect(notLocked).toMatchObject({ code: 'LOCK_LOST', lockedByOther: false });
      expect(mapScriptError(await reply('RQ_LOCKED_BY_OTHER'), 'q')).toMatchObject({ code: 'LOCK_LOST', lockedByOther: true });
      const other = mapScriptError(await redis.eval("return redis.call('INCR', 'a', 'b')", 0).catch((e: unknown) => e), 'q');
      expect(other).toBeInstanceOf(RedisScriptError);
      expect(other.code).toBe('REDIS_SCRIPT_ERROR');
      expect(other.message).toMatch(/^q: /);
    } finally {
      await redis.quit();
    }
  });

  it('passes an already typed error through (RedisUnreachableError keeps its class and code)', () => {
    const unreachable = new RedisUnreachableError('redis://127.0.0.1:1', 10);
    expect(mapScriptError(unreachable, 'q')).toBe(unreachable);
  });
});
