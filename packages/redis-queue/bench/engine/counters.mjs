// Server counters of the bench's own redis-server around a phase: CPU (INFO cpu), calls per command (INFO
// commandstats: Redis 7 counts the commands a script runs, and the EVALSHA itself), used_memory.
import { setTimeout as sleep } from 'node:timers/promises';
import { callsDelta, commandCalls, parseInfo } from '../redis-info.mjs';

/** Microseconds of command execution per command name (INFO commandstats `usec`; a script's includes its commands). */
async function commandUsec(redis) {
  const usec = {};
  for (const [key, value] of Object.entries(parseInfo(await redis.info('commandstats')))) {
    const m = /usec=(\d+)/.exec(value);
    if (key.startsWith('cmdstat_') && m) usec[key.slice(8)] = Number(m[1]);
  }
  return usec;
}

/** Commands the bench itself sends between phases, left out of every count. */
const OWN = new Set(['info', 'flushall', 'echo', 'monitor']);

/** A snapshot: `cpu` seconds (used_cpu_user + used_cpu_sys), `calls` and `usec` per command name, `usedMemory`. */
export async function snapshot(redis) {
  const cpu = parseInfo(await redis.info('cpu'));
  const memory = parseInfo(await redis.info('memory'));
  return {
    cpu: Number(cpu.used_cpu_user) + Number(cpu.used_cpu_sys),
    calls: await commandCalls(redis),
    usec: await commandUsec(redis),
    usedMemory: Number(memory.used_memory),
  };
}

/** Execution µs of the scripts (EVALSHA and EVAL, their commands included) between two snapshots. */
const scriptUs = (a, b) =>
  ['evalsha', 'eval'].reduce((s, name) => s + (b.usec[name] ?? 0) - (a.usec[name] ?? 0), 0);

/** What happened between two snapshots: `cpuUs`, `commands` (every call but the bench's own), `calls` per command,
 * `scriptUs` (time spent running scripts; the rest of cpuUs is reading, parsing, replying and the event loop). */
export function delta(a, b) {
  const calls = callsDelta(a.calls, b.calls);
  for (const name of Object.keys(calls)) if (OWN.has(name.split('|')[0])) delete calls[name];
  const commands = Object.values(calls).reduce((s, n) => s + n, 0);
  const usec = {};
  for (const name of Object.keys(calls)) usec[name] = (b.usec[name] ?? 0) - (a.usec[name] ?? 0);
  return { cpuUs: (b.cpu - a.cpu) * 1e6, commands, calls, usec, scriptUs: scriptUs(a, b) };
}

/** The sum of phase deltas. */
export function sumDeltas(...deltas) {
  const calls = {};
  for (const d of deltas)
    for (const [name, n] of Object.entries(d.calls)) calls[name] = (calls[name] ?? 0) + n;
  return {
    cpuUs: deltas.reduce((s, d) => s + d.cpuUs, 0),
    commands: deltas.reduce((s, d) => s + d.commands, 0),
    calls,
    scriptUs: deltas.reduce((s, d) => s + d.scriptUs, 0),
  };
}

/** used_memory once the server settled (client buffers drained, incremental rehashing given time). */
export async function settledMemory(redis) {
  await sleep(300);
  return Number(parseInfo(await redis.info('memory')).used_memory);
}
