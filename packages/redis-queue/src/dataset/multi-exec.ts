import type { ChainableCommander } from 'ioredis';
import { wrongTypeErrorOf } from '../errors/wrong-type-error-of.js';

/** The commands queued in a MULTI (ioredis keeps them in `_queue`, MULTI itself first): a reply error inside EXEC
 * carries no `command`, unlike a plain command's, and the WRONGTYPE mapping names the key from it. */
function queuedCommands(multi: ChainableCommander): { name: string; args: unknown[] }[] {
  const queue = (multi as unknown as { _queue?: { name?: unknown; args?: unknown }[] })._queue;
  if (!Array.isArray(queue)) return [];
  return queue
    .filter((c) => typeof c.name === 'string' && c.name !== 'multi')
    .map((c) => ({ name: c.name as string, args: Array.isArray(c.args) ? (c.args as unknown[]) : [] }));
}

/**
 * Runs a MULTI and returns the reply of each command, throwing the first command error (ioredis reports those as
 * `[error, reply]` pairs instead of rejecting).
 *
 * @param multi - the queued transaction
 * @returns the replies, in order
 * @throws `KeyTypeError` naming the key when a command met a key of another type (WRONGTYPE); else the first
 *   command error as Redis gave it
 */
export async function execMulti(multi: ChainableCommander): Promise<unknown[]> {
  const queued = queuedCommands(multi);
  const replies = await multi.exec();
  if (!replies) throw new Error('Redis aborted the MULTI transaction (a WATCHed key changed); retry the operation');
  return replies.map(([error, reply], i) => {
    if (error) {
      const sent = queued[i];
      throw wrongTypeErrorOf(sent ? Object.assign(error, { command: sent }) : error) ?? error;
    }
    return reply;
  });
}
