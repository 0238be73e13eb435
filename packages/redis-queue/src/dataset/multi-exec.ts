import type { ChainableCommander } from 'ioredis';

/**
 * Runs a MULTI and returns the reply of each command, throwing the first command error (ioredis reports those as
 * `[error, reply]` pairs instead of rejecting).
 *
 * @param multi - the queued transaction
 * @returns the replies, in order
 */
export async function execMulti(multi: ChainableCommander): Promise<unknown[]> {
  const replies = await multi.exec();
  if (!replies) throw new Error('Redis aborted the MULTI transaction (a WATCHed key changed); retry the operation');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
