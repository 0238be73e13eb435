import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { effectiveMaxPerHost, fleetPoliteness } from '../src/worker/politeness.js';
import { runCli } from './helpers/run-cli.js';

/** The README's options-table row of a flag. */
function readmeRow(flag: string): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${flag}`));
  if (row === undefined) throw new Error(`README has no options row for ${flag}`);
  return row;
}

describe('--host-delay-secs and --max-per-host: behaviour, --help and the README agree', () => {
  it('a delay alone puts one request per host in flight; no delay, no limit; an explicit limit wins', () => {
    expect(effectiveMaxPerHost(0.5, undefined)).toBe(1);
    expect(fleetPoliteness(0.5, undefined)).toMatchObject({ minDelaySecs: 0.5, maxConcurrencyPerHost: 1 });
    expect(effectiveMaxPerHost(undefined, undefined)).toBeUndefined();
    expect(effectiveMaxPerHost(0, undefined)).toBeUndefined();
    expect(effectiveMaxPerHost(0.5, 4)).toBe(4);
  });

  it('--help and the README state that default, not "unlimited" alone', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(/--max-per-host <n> .*default 1 with a --host-delay-secs above 0.*else unlimited/);
    const row = readmeRow('--max-per-host');
    expect(row).toMatch(/`1` with a `--host-delay-secs` above 0, else unlimited/);
  });
});
