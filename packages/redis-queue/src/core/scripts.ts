import { createScriptRegistry, type ScriptArg } from '@crawlee-distributed/redis-kit';
import addRequests from '../lua/add-requests.lua';
import claimFeedBatch from '../lua/claim-feed-batch.lua';
import claimShardLayout from '../lua/claim-shard-layout.lua';
import createQueue from '../lua/create-queue.lua';
import deadLetterRequest from '../lua/dead-letter-request.lua';
import deleteRequest from '../lua/delete-request.lua';
import deleteRequestLock from '../lua/delete-request-lock.lua';
import backOffHost from '../lua/back-off-host.lua';
import heartbeat from '../lua/heartbeat.lua';
import listAndLockHead from '../lua/list-and-lock-head.lua';
import listAndLockHeadPolite from '../lua/list-and-lock-head-polite.lua';
import politenessStats from '../lua/politeness-stats.lua';
import listHead from '../lua/list-head.lua';
import prolongRequestLock from '../lua/prolong-request-lock.lua';
import publishWorkerStats from '../lua/publish-worker-stats.lua';
import purgeQueue from '../lua/purge-queue.lua';
import queueStats from '../lua/queue-stats.lua';
import releaseLocks from '../lua/release-locks.lua';
import renewProducerLease from '../lua/renew-producer-lease.lua';
import requeueDeadLetter from '../lua/requeue-dead-letter.lua';
import requeueFailed from '../lua/requeue-failed.lua';
import takeOverScrapyBatch from '../lua/take-over-scrapy-batch.lua';
import updateRequest from '../lua/update-request.lua';
import { PACKAGE_VERSION } from './version.js';
import type { RedisConnection } from '@crawlee-distributed/redis-kit';

export type { ScriptArg } from '@crawlee-distributed/redis-kit';

/** Every Lua script of the package, by operation (one file per operation in `src/lua/`, includes resolved at build). */
const registry = createScriptRegistry({
  prefix: 'rq',
  version: PACKAGE_VERSION,
  scripts: {
    addRequests,
    backOffHost,
    claimFeedBatch,
    claimShardLayout,
    createQueue,
    deadLetterRequest,
    deleteRequest,
    deleteRequestLock,
    heartbeat,
    listAndLockHead,
    listAndLockHeadPolite,
    listHead,
    prolongRequestLock,
    politenessStats,
    publishWorkerStats,
    purgeQueue,
    queueStats,
    releaseLocks,
    renewProducerLease,
    requeueDeadLetter,
    takeOverScrapyBatch,
    requeueFailed,
    updateRequest,
  },
});

/** Name of a queue operation script. */
export type ScriptName =
  | 'addRequests'
  | 'backOffHost'
  | 'claimFeedBatch'
  | 'claimShardLayout'
  | 'createQueue'
  | 'deadLetterRequest'
  | 'deleteRequest'
  | 'deleteRequestLock'
  | 'heartbeat'
  | 'listAndLockHead'
  | 'listAndLockHeadPolite'
  | 'listHead'
  | 'politenessStats'
  | 'prolongRequestLock'
  | 'publishWorkerStats'
  | 'purgeQueue'
  | 'queueStats'
  | 'releaseLocks'
  | 'renewProducerLease'
  | 'requeueDeadLetter'
  | 'takeOverScrapyBatch'
  | 'requeueFailed'
  | 'updateRequest';

/** The ioredis command name of a script: `rq` + operation + version, e.g. `rqAddRequests_0_1_0`.
 * @param name - the operation */
export function commandName(name: ScriptName): string {
  return registry.commandName(name);
}

/**
 * Runs a queue script.
 *
 * @param redis - the connection
 * @param name - the operation
 * @param keys - KEYS of the script (all on one Cluster slot)
 * @param args - ARGV of the script
 * @returns the raw reply
 */
export function runScript(redis: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown> {
  return registry.run(redis, name, keys, args);
}

/**
 * Runs a queue script and returns bulk replies as Buffers, for replies that carry stored bytes: a request written
 * by another program may not be UTF-8, and decoding it would alter it.
 *
 * @param redis - the connection
 * @param name - the operation
 * @param keys - KEYS of the script
 * @param args - ARGV of the script
 * @returns the raw reply, bulk strings as Buffers
 */
export function runScriptBuffer(redis: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown> {
  return registry.runBuffer(redis, name, keys, args);
}

/**
 * Defines every queue script on a connection before its first command (see the kit's `ScriptRegistry.define`: an
 * auto-pipeline created before a script is defined lacks it).
 * @param redis - the connection
 */
export function defineScripts(redis: RedisConnection): void {
  registry.define(redis);
}
