// What `npm start` prints when its output is not a terminal (a log file, a pipe): no ANSI colour codes, one line
// before the build, no turbo deprecation warning; and on a real terminal (tmux) colours unless NO_COLOR is set.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CLI } from './helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ESC = '\x1b';

/** The environment of a user who set nothing about colours. */
function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: inject('redisUrl'), ...extra };
  for (const name of ['NO_COLOR', 'FORCE_COLOR']) if (!(name in extra)) delete env[name];
  return env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const socket = `start-output-${randomUUID().slice(0, 8)}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
});

async function terminalRun(session: string, env: string): Promise<string> {
  const command = `${env} '${process.execPath}' '${CLI}' --demo --workers 1 --max-requests 5 --redis '${inject('redisUrl')}'; echo "EXIT=$?"; sleep 60`;
  tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '60', `env -u NO_COLOR -u FORCE_COLOR sh -c ${JSON.stringify(command)}`);
  const deadline = Date.now() + 240_000;
  for (;;) {
    // -e keeps the escape sequences of the text on screen (colours included).
    const screen = tmux('capture-pane', '-e', '-p', '-S', '-', '-t', session);
    if (screen.includes('EXIT=')) return screen;
    if (Date.now() > deadline) throw new Error(`the crawl did not end on the terminal:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('npm start output', () => {
  it('redirected: says it builds first, no turbo banner or daemon warning, no ANSI colour codes', async () => {
    const { code, output } = await run('npm', ['start', '--', '--demo', '--workers', '1', '--max-requests', '5'], plainEnv());
    expect(code, output).toBe(0);
    expect(output).toMatch(/building the packages \((first run: a few minutes|only what changed: a few seconds)\)\.\.\./);
    // Said before the crawl prints anything; turbo's banner (version, packages in scope) is not shown on success.
    expect(output).toMatch(/built in \d+ s\n/);
    expect(output.indexOf('building the packages')).toBeLessThan(output.indexOf('INFO '));
    expect(output).not.toMatch(/turbo \d|Packages in scope|Remote caching/);
    expect(output).not.toContain('daemon');
    expect(output).toContain('INFO  summary:');
    expect(output).not.toContain(ESC);
  });

  it('on a terminal: Crawlee log lines in colour, plain with NO_COLOR', async () => {
    const coloured = await terminalRun('colour', '');
    expect(coloured).toContain('EXIT=0');
    expect(coloured).toContain(`${ESC}[32mINFO`);
    const plain = await terminalRun('no-colour', 'NO_COLOR=1');
    expect(plain).toContain('EXIT=0');
    expect(plain).toContain('INFO  summary:');
    expect(plain).not.toContain(`${ESC}[`);
  });
});
