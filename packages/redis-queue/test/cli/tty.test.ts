// The bin on a real terminal (tmux): watch refreshes in place, and a destructive command asks on the TTY.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';
import { BIN } from './run-bin.js';

let backend: TestBackend;
let world: QueueWorld;
// A tmux server of its own (-L), so no other session is touched; stopped in afterAll.
const socket = `crawlee-redis-test-${randomUUID().slice(0, 8)}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

function runInTerminal(session: string, args: string[]): void {
  const command = [process.execPath, BIN, ...args, '--redis', inject('redisUrl'), '--key-prefix', world.keyPrefix].map((a) => `'${a}'`).join(' ');
  // The shell sleeps after the command ends, so the pane's last screen can still be read.
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', `${command}; echo "EXIT=$?"; sleep 30`);
}

async function screenUntil(session: string, predicate: (screen: string) => boolean, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = tmux('capture-pane', '-p', '-t', session);
    if (predicate(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`terminal never showed what was expected:\n${screen}`);
    await sleep(100);
  }
}

describe('crawlee-redis on a terminal', () => {
  it('watch redraws one frame in place', async () => {
    world = createWorld(backend);
    const c = await world.client('w', { workerStats: { intervalSecs: 0.1, ttlSecs: 30 } });
    await c.batchAddRequests([req(1), req(2)]);
    await c.listAndLockHead({ limit: 1, lockSecs: 60 });
    runInTerminal('watch', ['watch', 'queue', '--interval', '0.3', '--frames', '4']);
    const screen = await screenUntil('watch', (s) => s.includes('EXIT='));
    expect(screen).toContain('EXIT=0');
    // Four frames were drawn, but the screen holds only the last one.
    expect(screen.match(/crawlee-redis watch queue/g)).toHaveLength(1);
    expect(screen).toContain('frame 4)');
    expect(screen).toMatch(/handled 0 \/ 2 \(0\.0%\)\s+pending 2\s+locked 1/);
    expect(screen).toMatch(/alive/);
  });

  it('watch without --frames (the README command) redraws until Ctrl-C, then exits 0', async () => {
    world = createWorld(backend);
    const c = await world.client('w', { workerStats: { intervalSecs: 0.1, ttlSecs: 30 } });
    await c.batchAddRequests([req(1), req(2), req(3)]);
    runInTerminal('watch-forever', ['watch', 'queue', '--interval', '0.2']);
    const third = await screenUntil('watch-forever', (s) => /frame (\d+)\)/.test(s) && Number(/frame (\d+)\)/.exec(s)![1]) >= 3);
    expect(third).not.toContain('EXIT=');
    expect(third.match(/crawlee-redis watch queue/g)).toHaveLength(1);
    expect(third).toMatch(/handled 0 \/ 3 \(0\.0%\)\s+pending 3/);
    tmux('send-keys', '-t', 'watch-forever', 'C-c');
    const done = await screenUntil('watch-forever', (s) => s.includes('EXIT='));
    expect(done).toContain('EXIT=0');
    expect(done).not.toContain('--frames must be');
  });

  it('purge asks on the terminal and runs once the queue name is typed', async () => {
    world = createWorld(backend);
    const c = await world.client('w');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    runInTerminal('purge-no', ['purge', 'queue']);
    await screenUntil('purge-no', (s) => s.includes('Type the queue name to confirm'));
    tmux('send-keys', '-t', 'purge-no', 'nope', 'Enter');
    const refused = await screenUntil('purge-no', (s) => s.includes('EXIT='));
    expect(refused).toContain('EXIT=2');
    expect((await world.admin().stats()).total).toBe(3);

    runInTerminal('purge-yes', ['purge', 'queue']);
    const prompt = await screenUntil('purge-yes', (s) => s.includes('Type the queue name to confirm'));
    expect(prompt).toContain('About to purge queue "queue" (3 requests)');
    tmux('send-keys', '-t', 'purge-yes', 'queue', 'Enter');
    const done = await screenUntil('purge-yes', (s) => s.includes('EXIT='));
    expect(done).toContain('EXIT=0');
    expect(done).toContain('purged queue "queue": 3 request(s) removed');
    expect((await world.admin().stats()).total).toBe(0);
  });
});
