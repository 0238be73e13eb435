// `crawlee-redis export` as users run it: the built bin as a child process, on a real Redis dataset pushed through
// RedisDatasetClient; both formats, to stdout and to a file, parsed back.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RedisConnection } from '../../src/core/connection.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { closeConnection, createBackend, type TestBackend } from '../helpers/backends.js';
import { BIN, runBin, startBin } from './run-bin.js';

let backend: TestBackend;
let redis: RedisConnection;
let storageClient: RedisStorageClient;
let url: string;
const keyPrefix = `exp-${randomUUID().slice(0, 12)}`;
const NAME = 'shop-products';
const ITEMS = Array.from({ length: 2500 }, (_, i) => ({
  url: `https://shop.example/item/${i}`,
  title: i % 7 === 0 ? `Item "${i}", with a comma\nand a newline` : `Item ${i}`,
  price: i / 4,
  tags: i % 2 === 0 ? ['even'] : [],
}));

beforeAll(async () => {
  url = inject('redisUrl');
  backend = await createBackend('ioredis6-resp3', url);
  redis = backend.connect();
  storageClient = new RedisStorageClient({ redis, keyPrefix, datasets: 'redis' });
  const { id } = await storageClient.datasets().getOrCreate(NAME);
  const dataset = storageClient.dataset(id);
  for (let i = 0; i < ITEMS.length; i += 500) await dataset.pushItems(ITEMS.slice(i, i + 500));
});
// A tmux server of its own (-L) for the terminal test, so no other session is touched.
const socket = `crawlee-redis-export-${randomUUID().slice(0, 8)}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // never started
  }
  const list = await storageClient.datasets().list();
  await Promise.all(list.items.map((d) => storageClient.dataset(d.id).delete()));
  await closeConnection(redis);
  await backend.stop();
});

const cli = (args: string[]) => runBin([...args, '--redis', url, '--key-prefix', keyPrefix]);

describe('crawlee-redis export', () => {
  it('streams JSON lines to stdout (nothing else on stdout), with progress on stderr when asked', async () => {
    const run = await cli(['export', NAME, '--format', 'jsonl', '--chunk-size', '1000', '--progress']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(ITEMS);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'exported 1,000 / 2,500 items (40%)',
      'exported 2,000 / 2,500 items (80%)',
      'exported 2,500 / 2,500 items (100%)',
    ]);
    // Without --progress and without a terminal, stderr stays empty.
    const quiet = await cli(['export', NAME]);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(run.stdout);
  });

  it('stops quietly (exit 0, nothing on stderr) when the reader closes the pipe, as `export x | head -1` does', async () => {
    const run = startBin(['export', NAME, '--chunk-size', '10', '--redis', url, '--key-prefix', keyPrefix]);
    run.child.stdout!.once('data', () => run.child.stdout!.destroy());
    expect(await run.exited).toBe(0);
    expect(run.errors()).toBe('');
  });

  it('on a terminal, progress is one stderr line rewritten in place', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'export-')), 'tty.jsonl');
    const command = [process.execPath, BIN, 'export', NAME, '--chunk-size', '500', '--output', output, '--redis', url, '--key-prefix', keyPrefix]
      .map((a) => `'${a}'`)
      .join(' ');
    tmux('new-session', '-d', '-s', 'export', '-x', '160', '-y', '20', `${command}; echo "EXIT=$?"; sleep 30`);
    let screen = '';
    for (let i = 0; i < 300 && !screen.includes('EXIT='); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      screen = tmux('capture-pane', '-p', '-t', 'export');
    }
    expect(screen).toContain('EXIT=0');
    const lines = screen.split('\n').filter((line) => line.trim() !== '');
    // Five chunks were reported, but only the last report is on the screen, then the result line.
    expect(lines.slice(0, 3)).toEqual([
      'exported 2,500 / 2,500 items (100%)',
      `exported 2,500 items of dataset "${NAME}" to ${output} (jsonl)`,
      'EXIT=0',
    ]);
    expect(readFileSync(output, 'utf8').trimEnd().split('\n')).toHaveLength(ITEMS.length);
  });

  it('writes CSV to a file (header from the first item, objects as JSON) and says where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    const output = join(dir, 'products.csv');
    const run = await cli(['export', NAME, '--format', 'csv', '--output', output, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ dataset: NAME, format: 'csv', output, items: ITEMS.length });
    expect(existsSync(`${output}.partial`)).toBe(false);
    const rows = parse<Record<string, string>>(readFileSync(output), { columns: true });
    expect(rows).toHaveLength(ITEMS.length);
    rows.forEach((row, i) => {
      const item = ITEMS[i]!;
      expect(row).toEqual({ url: item.url, title: item.title, price: String(item.price), tags: JSON.stringify(item.tags) });
    });
    const text = await cli(['export', NAME, '--format', 'csv', '-o', join(dir, 'again.csv')]);
    expect(text.stdout).toBe(`exported 2,500 items of dataset "${NAME}" to ${join(dir, 'again.csv')} (csv)\n`);
  });

  it('--unique-by url keeps the first record of each url (a killed worker\'s page pushed twice), across chunks', async () => {
    const name = 'pushed-twice';
    const { id } = await storageClient.datasets().getOrCreate(name);
    const records = [0, 1, 2, 1, 3, 0, 4].map((n, i) => ({ url: `https://shop.example/${n}`, worker: `w${i}` }));
    await storageClient.dataset(id).pushItems([...records, { worker: 'no url' }]);
    const output = join(mkdtempSync(join(tmpdir(), 'export-unique-')), 'pages.jsonl');
    const run = await cli(['export', name, '--unique-by', 'url', '--chunk-size', '2', '--output', output]);
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(output, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([records[0], records[1], records[2], records[4], records[6], { worker: 'no url' }]);
    expect(run.stdout).toContain('exported 6 items of dataset "pushed-twice"');
    expect(run.stdout).toContain('2 duplicates by url skipped');
    expect(run.stderr).toBe('warning: 1 of 8 items have no field "url"; they were kept as they are\n');

    // A field no item has (the case is wrong): every item kept, and a warning says the name is likely wrong.
    const typo = await cli(['export', name, '--unique-by', 'URL', '--output', `${output}.typo`]);
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stderr).toContain('no item has the field "URL": nothing was deduplicated; check the field name');
    expect(readFileSync(`${output}.typo`, 'utf8').trimEnd().split('\n')).toHaveLength(8);
  });

  it('a bad format or chunk size exits 2, an unknown dataset exits 1, and neither writes a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    const bad = await cli(['export', NAME, '--format', 'xml', '-o', join(dir, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be jsonl or csv (got "xml")');
    const chunk = await cli(['export', NAME, '--chunk-size', '0']);
    expect(chunk.code).toBe(2);
    expect(chunk.stderr).toContain('--chunk-size must be an integer from 1 to 100000');
    const missing = await cli(['export', 'no-such-dataset', '-o', join(dir, 'y')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dataset "no-such-dataset" does not exist');
    expect(existsSync(join(dir, 'x')) || existsSync(join(dir, 'y')) || existsSync(join(dir, 'y.partial'))).toBe(false);
  });

  it('an --output in a directory that does not exist (or cannot be written) exits 2 with the reason, no crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    const run = await cli(['export', NAME, '--output', join(dir, 'missing-dir', 'out.jsonl')]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('cannot write into');
    expect(run.stderr).not.toMatch(/Unhandled|\n\s+at /);
    expect(existsSync(join(dir, 'missing-dir'))).toBe(false);
  });

  it('exportDataset itself refuses an unwritable output with InvalidOptionsError instead of an unhandled stream error', async () => {
    const { exportDataset } = await import('../../src/dataset/export-dataset.js');
    const { InvalidOptionsError } = await import('../../src/errors/invalid-options-error.js');
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    await expect(exportDataset({ redis: url, keyPrefix, name: NAME, format: 'jsonl', output: join(dir, 'nope', 'x.jsonl') })).rejects.toThrow(InvalidOptionsError);
  });
});
