import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLuaIncludes } from '@crawlee-distributed/redis-kit/build';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { ADD_REPLY, ERROR_REPLY, FEED_REPLY, REQUEUE_REPLY } from './reply-codes.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { LockLostError } from '../errors/lock-lost-error.js';
import { mapScriptError } from './map-script-error.js';
import { RedisScriptError } from '../errors/redis-script-error.js';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import { RequestAlreadyHandledError } from '../errors/request-already-handled-error.js';
import { RequestNotFoundError } from '../errors/request-not-found-error.js';

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

describe('reply-code table (src/lua/reply-codes.json)', () => {
  it('every error reply code maps to its own typed error, RQ_BAD_PLAN included', () => {
    for (const code of Object.values(ERROR_REPLY)) {
      const mapped = mapScriptError(new Error(`${code} detail`), 'q');
      expect(mapped, code).not.toBeInstanceOf(RedisScriptError);
      expect(mapped.message, code).toMatch(/^q: detail/);
    }
    expect(mapScriptError(new Error(`${ERROR_REPLY.BAD_PLAN} unknown op type x`), 'q')).toBeInstanceOf(InvalidOptionsError);
  });

  it('the Lua constants are the table\'s numbers (the same include the scripts use)', async () => {
    const redis = new Redis(inject('redisUrl'));
    try {
      const lua = `--- @include "reply-codes"\nreturn { ADD_ADDED, ADD_FILTERED, FEED_HEAD_CHANGED, REQUEUE_REQUEUED, ERR_BAD_PLAN }`;
      const dir = mkdtempSync(join(tmpdir(), 'reply-codes-'));
      const file = join(dir, 'probe.lua');
      writeFileSync(file, lua);
      copyFileSync(fileURLToPath(new URL('../lua/reply-codes.json', import.meta.url)), join(dir, 'reply-codes.json'));
      const reply = await redis.eval(resolveLuaIncludes(file).source, 0);
      rmSync(dir, { recursive: true, force: true });
      expect(reply).toEqual([ADD_REPLY.ADDED, ADD_REPLY.FILTERED, FEED_REPLY.HEAD_CHANGED, REQUEUE_REPLY.REQUEUED, ERROR_REPLY.BAD_PLAN]);
    } finally {
      await redis.quit();
    }
  });
});
