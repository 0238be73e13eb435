// Runs driver.mjs / restart.mjs in child processes and returns the JSON line each prints.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';

const file = (name) => fileURLToPath(new URL(name, import.meta.url));

/** Runs `script` with `cfg` as argv[2]; resolves with its last stdout line parsed as JSON. Its stderr is passed on. */
export function runChild(script, cfg, { execArgv = [], timeoutSecs = 3600 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, file(script), JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSecs * 1000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${script} exited with ${code ?? signal}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`${script} printed no result: ${stdout.slice(-500)}`, { cause: error }));
      }
    });
  });
}
