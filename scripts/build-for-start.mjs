// `npm start` builds the packages the example needs before it runs. A first build (no dist/ yet) takes a few minutes
// on a small machine, so the user is told why the command seems to hang; turbo's own banner (version, packages in
// scope, cache summary) says nothing a user starting a crawl needs, so its output is shown only when the build fails.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The example is built last (it depends on every package): without its bundle, this is a first build.
const built = existsSync(new URL('../examples/distributed-cheerio/dist/cli.js', import.meta.url));
process.stdout.write(
  built
    ? 'building the packages (only what changed: a few seconds)...\n'
    : 'building the packages (first run: a few minutes)...\n',
);
const started = Date.now();
const turbo = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const args = ['--no', 'turbo', 'run', 'build', '--env-mode=loose', '--output-logs=errors-only', '--filter=distributed-cheerio...'];
const child = spawn(turbo, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });
const output = [];
child.stdout.on('data', (chunk) => output.push(chunk));
child.stderr.on('data', (chunk) => output.push(chunk));
child.once('error', (error) => {
  process.stderr.write(`could not run turbo (${error.message}): run \`npm ci\` at the repository root first\n`);
  process.exit(1);
});
child.once('close', (code) => {
  if (code === 0) {
    process.stdout.write(`built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    return;
  }
  process.stderr.write(Buffer.concat(output));
  process.stderr.write(`\nthe build failed (turbo exit code ${code}); the output above says where\n`);
  process.exit(code ?? 1);
});
