// Where each command of a request goes, per script: INFO commandstats lumps every script under `evalsha`, so a
// small run is watched through MONITOR (which costs Redis CPU: never during a measured row). MONITOR shows an
// EVALSHA before the commands its script runs (source 'lua'), and a script runs atomically, so every 'lua' line
// belongs to the last EVALSHA/EVAL shown. The SHA-1 maps to a script name through the names the workers registered
// (worker.mjs); an EVAL (ioredis sends one per connection and script, with the source) maps through the sources. ECHO markers sent by the bench split the stream into phases in server order.
import { Buffer } from 'node:buffer';
import { Redis } from 'ioredis';
import { runWorkers } from './fleet.mjs';

const MARK = 'bench-engine-phase:';
const PREFIX = 2000;

/** The letters and digits of a Lua source as MONITOR shows it (newline as `\\n` etc.): the key of an EVAL. */
const letters = (monitored) => monitored.replace(/[^A-Za-z0-9]/g, '').slice(0, PREFIX);
const ESCAPES = { 10: 'n', 13: 'r', 9: 't', 7: 'a', 8: 'b' };
/** The same key from the source itself: its bytes escaped as Redis's MONITOR escapes them (sdscatrepr). */
const sourceLetters = (lua) => {
  let out = '';
  for (const byte of Buffer.from(lua, 'utf8')) {
    if (ESCAPES[byte]) out += ESCAPES[byte];
    else if (byte < 0x20 || byte > 0x7e) out += `x${byte.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(byte);
    if (out.length > PREFIX * 2) break;
  }
  return letters(out);
};

/** `rqListAndLockHead_0_1_0` to `listAndLockHead`. */
const shortName = (name) => {
  const bare = name.replace(/^rq/, '').replace(/_\d+_\d+_\d+.*$/, '');
  return bare.charAt(0).toLowerCase() + bare.slice(1);
};

/**
 * Runs a small crawl (seed, then `workers` crawling processes) under MONITOR.
 * @param ctx - redis, redisUrl
 * @param row - impl, workload, count, workers, concurrency, queueOptions
 * @returns per phase ('add', 'crawl'): `handled`, and per script: calls, inner commands by name; commands sent
 *   outside scripts under '(no script)'
 */
export async function monitorProfile(ctx, row) {
  await ctx.redis.flushall();
  // monitor() opens a connection of its own: both are closed at the end.
  const owner = new Redis(ctx.redisUrl);
  const monitor = await owner.monitor();
  const scripts = {};
  const phases = { add: {}, crawl: {} };
  let phase = 'ignore';
  let current;
  let onDone;
  const done = new Promise((resolve) => (onDone = resolve));
  monitor.on('monitor', (_time, args, source) => {
    const command = String(args[0]).toLowerCase();
    if (command === 'echo' && String(args[1]).startsWith(MARK)) {
      phase = String(args[1]).slice(MARK.length);
      if (phase === 'done') onDone();
      return;
    }
    if (phase === 'ignore' || phase === 'done' || ['info', 'flushall', 'monitor'].includes(command)) return;
    const table = phases[phase];
    if (source === 'lua') {
      if (current) current.inner[command] = (current.inner[command] ?? 0) + 1;
      return;
    }
    if (command === 'evalsha' || command === 'eval') {
      // ioredis sends EVAL with the whole source on each connection's first call of a script; MONITOR shows the
      // source escaped, so it is matched by its letters and digits.
      const key = command === 'evalsha' ? String(args[1]) : `eval:${letters(String(args[1]))}`;
      table[key] ??= { calls: 0, inner: {} };
      table[key].calls++;
      current = table[key];
      return;
    }
    table['(no script)'] ??= { calls: 0, inner: {} };
    table['(no script)'].inner[command] = (table['(no script)'].inner[command] ?? 0) + 1;
    current = undefined;
  });
  const queueName = `engine-profile-${Date.now()}`;
  const base = {
    impl: row.impl,
    redisUrl: ctx.redisUrl,
    keyPrefix: 'engine',
    queueName,
    workload: row.workload,
    queueOptions: row.queueOptions ?? {},
    withSources: true,
  };
  const mark = (name) => ctx.redis.echo(`${MARK}${name}`);
  await mark('add');
  const seed = await runWorkers([{ ...base, role: 'seed', count: row.count }]);
  await mark('ignore');
  const crawlCfg = { ...base, role: 'crawl', concurrency: row.concurrency, handlerMs: 0, warmup: 0 };
  const fleet = await runWorkers(
    Array.from({ length: row.workers }, () => crawlCfg),
    { beforeGo: () => mark('crawl') },
  );
  await mark('done');
  await done; // the MONITOR stream has caught up with everything before the marker
  monitor.disconnect();
  owner.disconnect();
  for (const r of [...seed.results, ...fleet.results]) {
    Object.assign(scripts, r.scripts);
    for (const [name, lua] of Object.entries(r.sources ?? {})) scripts[`eval:${sourceLetters(lua)}`] = name;
  }
  const handled = fleet.results.reduce((s, r) => s + r.handled, 0);
  // An EVAL and the EVALSHAs of one script are one script: their counts add up.
  const named = (table) => {
    const out = {};
    for (const [key, value] of Object.entries(table)) {
      const name = key === '(no script)' ? key : shortName(scripts[key] ?? `unknown ${key.slice(0, 12)}`);
      const into = (out[name] ??= { calls: 0, inner: {} });
      into.calls += value.calls;
      for (const [command, n] of Object.entries(value.inner))
        into.inner[command] = (into.inner[command] ?? 0) + n;
    }
    return out;
  };
  return { handled, add: named(phases.add), crawl: named(phases.crawl) };
}
