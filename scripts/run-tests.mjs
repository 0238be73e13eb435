#!/usr/bin/env node
// `npm test`: build everything, run every workspace's vitest suite one package at a time (they share Redis servers
// and spawn worker processes on 2 cores), then the packaging gate. Prints one closing line that adds up every
// package's vitest `Tests` summary: `Total: N passed, N failed`.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
const ansi = /\x1b\[[0-9;]*m/g;
const totals = { passed: 0, failed: 0, skipped: 0, files: 0 };

function step(cmd, args) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk, out) => {
      out.write(chunk);
      for (const raw of chunk.toString().split('\n')) {
        const line = raw.replace(ansi, '');
        const tests = /\bTests\s+(.*)\((\d+)\)\s*$/.exec(line);
        if (tests && !/Test Files/.test(line)) {
          totals.files++;
          for (const [, n, kind] of tests[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
            if (kind in totals) totals[kind] += Number(n);
          }
        }
        const pack = /^packaging: (\d+) passed, (\d+) failed/.exec(line.trim());
        if (pack) {
          totals.passed += Number(pack[1]);
          totals.failed += Number(pack[2]);
        }
      }
    };
    child.stdout.on('data', (c) => onData(c, process.stdout));
    child.stderr.on('data', (c) => onData(c, process.stderr));
    child.on('close', (code) => done(code ?? 1));
  });
}

const turbo = resolve(root, 'node_modules/.bin/turbo');
let code = await step(turbo, ['run', 'build', '--env-mode=loose', '--output-logs=errors-only']);
if (code === 0) {
  const testCode = await step(turbo, ['run', 'test', '--env-mode=loose', '--concurrency=1', '--continue']);
  const packCode = await step(process.execPath, [resolve(root, 'scripts/check-packages.mjs')]);
  code = testCode || packCode;
}
if (code !== 0 && totals.failed === 0) totals.failed = 1; // a crash before any summary still counts as a failure
console.log(`\n${totals.files} vitest suites, packaging gate included below`);
console.log(`Total: ${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ''));
process.exit(code);
