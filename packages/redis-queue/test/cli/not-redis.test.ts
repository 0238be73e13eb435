import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from './cli-io.js';

// A port that answers in another protocol (an HTTP server) is not "Redis unreachable": the CLI says what it found.

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('--redis at an HTTP server', () => {
  it('ls says the port answered, but not like a Redis server (exit 1)', async () => {
    const run = await runCliIn(['ls', '--redis', url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`crawlee-redis: ${url} answered, but not like a Redis server (is it the right port?); give the Redis URL with --redis URL or REDIS_URL\n`);
    expect(run.stderr).not.toMatch(/RESP|EPIPE|Please report/);
  }, 20_000);
});
