// How much parallel CPU the machine gives right now: the same busy loop in one process, then in two at once.
// On an idle 2-core machine two processes run at about 2x the throughput of one; when other work shares the cores,
// less. The "two workers / one" ratio of the benchmark cannot exceed this number, so the report prints it.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const LOOP = 'let x = 0; for (let i = 0; i < 6e8; i++) x += i; if (x < 0) console.log(x);';

function spin() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - t0));
  });
}

/** Throughput of two concurrent busy processes relative to one (2.0 = two free cores). */
export async function parallelHeadroom() {
  const one = await spin();
  const two = await Promise.all([spin(), spin()]);
  return (2 * one) / Math.max(...two);
}
