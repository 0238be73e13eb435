// Runs crawl-process.mjs children: one at a time, or a fleet released at the same moment.
import { fork } from 'node:child_process';
import { setTimeout, clearTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./crawl-process.mjs', import.meta.url));

/**
 * @param cfg - the child's settings (see crawl-process.mjs)
 * @param finishGraceSecs - after a 'measured' message, how long to wait for the crawler to finish before the child
 *   is killed and the measured numbers are kept with `finishStalled: true`
 * @param hardLimitSecs - kill the child after this long in any case (a run that never ends fails the bench)
 * @param capSecs - after 'go', kill the child after this long and keep its last progress report (`capped: true`)
 */
function startChild(cfg, finishGraceSecs, hardLimitSecs, capSecs) {
  const child = fork(CHILD, [JSON.stringify(cfg)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('error', () => undefined); // a 'go' sent to a seed-only child that is already leaving
  let onReady;
  const ready = new Promise((resolve) => (onReady = resolve));
  let startCap;
  const result = new Promise((resolve, reject) => {
    let measured;
    let progress;
    let graceTimer;
    let capTimer;
    const hardTimer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench process ran longer than ${hardLimitSecs} s`));
    }, hardLimitSecs * 1000);
    const settle = (value) => {
      clearTimeout(hardTimer);
      clearTimeout(graceTimer);
      clearTimeout(capTimer);
      resolve(value);
    };
    startCap = () => {
      if (!capSecs) return;
      capTimer = setTimeout(() => {
        if (measured) return; // everything was handled; the grace timer decides
        child.kill('SIGKILL');
        if (progress) settle({ ...progress, type: 'result', capped: true });
        else reject(new Error(`bench process handled fewer than 500 requests in ${capSecs} s`));
      }, capSecs * 1000);
    };
    child.on('message', (message) => {
      if (message?.type === 'ready') onReady();
      if (message?.type === 'result') settle(message);
      if (message?.type === 'progress') progress = message;
      if (message?.type === 'measured') {
        measured = message;
        graceTimer = setTimeout(() => {
          child.kill('SIGKILL');
          settle({ ...measured, type: 'result', finishStalled: true });
        }, finishGraceSecs * 1000);
      }
    });
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`bench process exited (${code ?? signal}) without a result`));
    });
  });
  // A child that only seeds never sends 'ready'.
  result.then(onReady, onReady);
  return { child, ready, result, go: () => startCap?.() };
}

/**
 * Starts `count` processes, waits until every crawler is built, releases them together and returns their results
 * plus the release time (the start of the measured interval).
 *
 * @param cfg - the settings of every process, or a function of the process index (0-based) returning them
 * @param beforeGo - awaited once every process is ready (warmed up) and before they are released
 */
export async function runFleet(count, cfg, { finishGraceSecs = 10, hardLimitSecs = 900, capSecs, beforeGo } = {}) {
  const cfgOf = typeof cfg === 'function' ? cfg : () => cfg;
  const children = Array.from({ length: count }, (_, i) => startChild(cfgOf(i), finishGraceSecs, hardLimitSecs, capSecs));
  await Promise.all(children.map((c) => c.ready));
  await beforeGo?.();
  const goAt = Date.now();
  for (const c of children) {
    if (c.child.connected) c.child.send({ type: 'go' });
    c.go();
  }
  const results = await Promise.all(children.map((c) => c.result));
  return { goAt, results };
}

/** One process: seed only (no crawl), or seed and crawl in the same process (the MemoryStorage case). */
export async function runOne(cfg, limits) {
  const { goAt, results } = await runFleet(1, cfg, limits);
  return { goAt, ...results[0] };
}
