// Reads the counters of the bench-only redis-server that the benchmark reports per request.

/** Parses the text of `INFO <section>` into an object of field name to string value. */
export function parseInfo(text) {
  const fields = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return fields;
}

/**
 * A snapshot of what the server has done so far.
 * `commands` counts every command, including those a Lua script runs (Redis 7 counts script-internal calls in
 * total_commands_processed); `cpuSeconds` is the server process's user + system CPU time.
 */
export async function serverCounters(redis) {
  const stats = parseInfo(await redis.info('stats'));
  const cpu = parseInfo(await redis.info('cpu'));
  const memory = parseInfo(await redis.info('memory'));
  return {
    commands: Number(stats.total_commands_processed),
    cpuSeconds: Number(cpu.used_cpu_user) + Number(cpu.used_cpu_sys),
    usedMemory: Number(memory.used_memory),
  };
}

/** Calls per command name from `INFO commandstats` (script-internal calls included). */
export async function commandCalls(redis) {
  const fields = parseInfo(await redis.info('commandstats'));
  const calls = {};
  for (const [key, value] of Object.entries(fields)) {
    const match = /^cmdstat_(.+)$/.exec(key);
    const n = /calls=(\d+)/.exec(value);
    if (match && n) calls[match[1]] = Number(n[1]);
  }
  return calls;
}

/** b - a for every command name, without zeros. */
export function callsDelta(a, b) {
  const delta = {};
  for (const [name, n] of Object.entries(b)) if (n - (a[name] ?? 0) > 0) delta[name] = n - (a[name] ?? 0);
  return delta;
}
