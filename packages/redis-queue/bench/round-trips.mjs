// Counts what this process sends to Redis, by patching ioredis before any connection exists.
//
// A round trip is one command sent on its own, or one pipeline (MULTI/EXEC included) flushed as a whole; a
// command is every command, inside pipelines too. Scripts count as one command here (what runs inside them is
// Redis's business and shows up in the server's CPU time instead). The NOSCRIPT fallback of ioredis (EVALSHA, then
// EVAL) counts twice, as it costs twice.
import { Pipeline, Redis } from 'ioredis';

export const sent = { roundTrips: 0, commands: 0 };

const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function countedSendCommand(command, stream, ...rest) {
  sent.commands++;
  // Pipelines pass their own collecting stream; those commands travel in the pipeline's single write.
  if (stream === undefined) sent.roundTrips++;
  return sendCommand.call(this, command, stream, ...rest);
};

const exec = Pipeline.prototype.exec;
Pipeline.prototype.exec = function countedExec(...args) {
  sent.roundTrips++;
  return exec.apply(this, args);
};

/** A copy of the counters now, to subtract later. */
export function snapshot() {
  return { ...sent };
}
