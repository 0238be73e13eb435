// Starts worker.mjs (or the scrapy-redis driver) processes, releases crawlers together, collects their results.
import { fork, spawn } from 'node:child_process';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const SCRAPY = fileURLToPath(new URL('./scrapy_redis_driver.py', import.meta.url));

function startWorker(cfg, hardLimitSecs) {
  const child = fork(WORKER, [JSON.stringify(cfg)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let onReady;
  const ready = new Promise((resolve) => (onReady = resolve));
  const result = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`bench:engine worker (${cfg.role} ${cfg.queueName}) ran longer than ${hardLimitSecs} s`),
      );
    }, hardLimitSecs * 1000);
    child.on('message', (message) => {
      if (message?.type === 'ready') onReady();
      if (message?.type === 'result') {
        clearTimeout(timer);
        resolve(message);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        reject(new Error(`bench:engine worker (${cfg.role} ${cfg.queueName}) exited with ${code ?? signal}`));
    });
  });
  result.then(onReady, onReady); // a seeding process never sends 'ready'
  return { child, ready, result };
}

/**
 * Runs `cfgs.length` worker processes; once all are ready, awaits `beforeGo`, sends 'go' to all.
 * @returns the release time and every process's result
 */
export async function runWorkers(cfgs, { beforeGo, hardLimitSecs = 600 } = {}) {
  const workers = cfgs.map((cfg) => startWorker(cfg, hardLimitSecs));
  await Promise.all(workers.map((w) => w.ready));
  await beforeGo?.();
  const goAt = Date.now();
  for (const w of workers) if (w.child.connected) w.child.send({ type: 'go' });
  const results = await Promise.all(workers.map((w) => w.result));
  return { goAt, results };
}

/**
 * Starts the scrapy-redis driver (Debian's python3 with scrapy, the vendored scrapy-redis on PYTHONPATH).
 * @param args - driver arguments (see scrapy_redis_driver.py)
 * @param input - for 'add': its standard input (one JSON request a line); 'pop' drivers wait for go() instead
 * @returns `ready` (the driver printed "ready"; resolves at once for 'add'), `go()`, and `result` (its last JSON line)
 */
export function startScrapy(python, pythonPath, args, input) {
  const child = spawn(python, [SCRAPY, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, PYTHONPATH: pythonPath },
  });
  let out = '';
  let onReady;
  const ready = new Promise((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.startsWith('ready\n')) onReady();
  });
  const result = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      onReady();
      if (code !== 0) return reject(new Error(`scrapy-redis driver (${args[0]}) exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`scrapy-redis driver printed no result: ${out.slice(-300)}`, { cause: error }));
      }
    });
  });
  if (input !== undefined) {
    child.stdin.end(input);
    onReady();
  }
  return { ready, result, go: () => child.stdin.end('go\n') };
}
