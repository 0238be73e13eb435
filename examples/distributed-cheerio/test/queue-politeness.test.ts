import type { PolitenessStats } from 'crawlee-redis-queue';
import { describe, expect, it } from 'vitest';
import { politenessForQueue } from '../src/coordinator/queue-politeness.js';
import { PolitenessFlagsMismatchError } from '../src/errors/politeness-flags-mismatch-error.js';
import { resolveOptions } from '../src/options.js';
import { EXAMPLE_RETRY_BACKOFF } from '../src/worker/politeness.js';

const idle = { hosts: 0, hostsWaiting: 0, longestWaitSecs: 0, delayed: 0, inFlight: {}, waiting: {} };
const none: PolitenessStats = { enabled: false, minDelaySecs: 0, maxConcurrencyPerHost: 0, ...idle };
const created: PolitenessStats = { enabled: true, minDelaySecs: 1.5, maxConcurrencyPerHost: 2, ...idle };
const opts = (raw: Parameters<typeof resolveOptions>[0]) => resolveOptions({ demo: true, queue: 'q', ...raw }, {});

describe('politenessForQueue: a new queue takes the flags, an existing one keeps its own', () => {
  it('a new queue: the flags, always with politeness on (host back-off by default) and the retry back-off', () => {
    expect(politenessForQueue(opts({}), none, false)).toEqual({ minDelaySecs: 0, retryBackoff: EXAMPLE_RETRY_BACKOFF });
    expect(politenessForQueue(opts({ hostDelaySecs: '0.5', maxPerHost: '3' }), none, false)).toEqual({
      minDelaySecs: 0.5,
      maxConcurrencyPerHost: 3,
      retryBackoff: EXAMPLE_RETRY_BACKOFF,
    });
  });

  it('a resume or --join without flags takes the limits the queue was created with', () => {
    expect(politenessForQueue(opts({}), created, true)).toMatchObject({ minDelaySecs: 1.5, maxConcurrencyPerHost: 2 });
    expect(politenessForQueue(opts({ hostDelaySecs: '1.5', maxPerHost: '2' }), created, true)).toMatchObject({ minDelaySecs: 1.5 });
  });

  it('flags that contradict the queue are refused before anything starts', () => {
    expect(() => politenessForQueue(opts({ hostDelaySecs: '3' }), created, true)).toThrow(PolitenessFlagsMismatchError);
    expect(() => politenessForQueue(opts({ hostDelaySecs: '3' }), created, true)).toThrow(
      /queue q was created with --host-delay-secs 1.5 --max-per-host 2, this run asks for --host-delay-secs 3: .*Leave out/,
    );
    expect(() => politenessForQueue(opts({ maxPerHost: '2' }), none, true)).toThrow(/created with no politeness/);
  });

  it('a resume with the exact flags of the first run matches, also when --max-per-host was left out (the default 1 with a delay)', () => {
    // The first run: --host-delay-secs 0.01 only. The queue records the limit in force: one per host.
    const first = politenessForQueue(opts({ hostDelaySecs: '0.01' }), none, false)!;
    expect(first).toMatchObject({ minDelaySecs: 0.01, maxConcurrencyPerHost: 1 });
    const recorded: PolitenessStats = { enabled: true, minDelaySecs: 0.01, maxConcurrencyPerHost: 1, ...idle };
    expect(politenessForQueue(opts({ hostDelaySecs: '0.01' }), recorded, true)).toMatchObject({ minDelaySecs: 0.01, maxConcurrencyPerHost: 1 });
    expect(() => politenessForQueue(opts({ hostDelaySecs: '0.01', maxPerHost: '2' }), recorded, true)).toThrow(PolitenessFlagsMismatchError);
  });

  it('a queue created without politeness (an older run) is resumed without it', () => {
    expect(politenessForQueue(opts({}), none, true)).toBeUndefined();
  });
});
