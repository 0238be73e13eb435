import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datasetKeys } from '../dataset/dataset-keys.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { workerStatsKeys } from '../stats/worker-stats-keys.js';
import { queueKeys } from './keys.js';

// Parts built from the pieces markers are made of (`:rq:`, `:ds:`), so colliding pairs are common in the samples.
const part = fc
  .array(fc.constantFrom('x', 'a', ':', 'rq', 'ds', ':rq', 'rq:', ':ds', ':rq:', 'r', 'q'), { minLength: 1, maxLength: 5 })
  .map((pieces) => pieces.join(''));

function accepted<T>(build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    if (error instanceof InvalidOptionsError) return undefined;
    throw error;
  }
}

/** Every key a (prefix, name) pair can own: the queue's, its worker stats', and the dataset of the same name. */
function keysOf(prefix: string, name: string): string[] | undefined {
  const queue = accepted(() => queueKeys(prefix, name));
  const dataset = accepted(() => datasetKeys(prefix, name));
  if (!queue || !dataset) return undefined;
  const stats = workerStatsKeys(queue);
  return [...queue.all.map((k) => `rq ${k}`), `rq ${stats.workers}`, `rq ${stats.crawl}`, `rq ${stats.worker('w1')}`, `ds ${dataset.items}`, `ds ${dataset.meta}`]
    .map((k) => k.slice(3));
}

describe('key isolation', () => {
  it('the known collision (prefix "x" + queue "rq:a" vs prefix "x:rq" + queue "a") is rejected, not shared', () => {
    expect(queueKeys('x', 'rq:a').tag).toBe('{x:rq:rq:a}');
    expect(() => queueKeys('x:rq', 'a')).toThrow(InvalidOptionsError);
    expect(() => queueKeys('x:rq:y', 'a')).toThrow(/namespace marker ":rq:"/);
    expect(() => datasetKeys('x:ds', 'a')).toThrow(InvalidOptionsError);
    // A queue and a dataset could share a meta hash: prefix "x" + queue "a:ds:b" vs prefix "x:rq:a" + dataset "b".
    expect(() => datasetKeys('x:rq:a', 'b')).toThrow(InvalidOptionsError);
  });

  it('two different accepted (keyPrefix, name) pairs never own the same key (queue, stats or dataset)', () => {
    fc.assert(
      fc.property(part, part, part, part, (p1, n1, p2, n2) => {
        fc.pre(p1 !== p2 || n1 !== n2);
        const a = keysOf(p1, n1);
        const b = keysOf(p2, n2);
        fc.pre(a !== undefined && b !== undefined);
        const shared = a.filter((k) => b.includes(k));
        expect(shared).toEqual([]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('the tag of an accepted pair has exactly one accepted reading as <prefix>:<ns>:<name>', () => {
    fc.assert(
      fc.property(part, part, fc.constantFrom('rq', 'ds'), (prefix, name, ns) => {
        const build = ns === 'rq' ? queueKeys : datasetKeys;
        const keys = accepted(() => build(prefix, name));
        fc.pre(keys !== undefined);
        const body = keys.tag.slice(1, -1);
        const readings: string[] = [];
        for (const other of ['rq', 'ds'] as const) {
          const marker = `:${other}:`;
          for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, at + 1)) {
            const p = body.slice(0, at);
            const n = body.slice(at + marker.length);
            const rebuilt = accepted(() => (other === 'rq' ? queueKeys : datasetKeys)(p, n));
            if (rebuilt) readings.push(`${other} ${p} ${n}`);
          }
        }
        expect(readings).toEqual([`${ns} ${prefix} ${name}`]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('queue and dataset keys of one pair never meet either', () => {
    fc.assert(
      fc.property(part, part, part, part, (p1, n1, p2, n2) => {
        const queue = accepted(() => queueKeys(p1, n1));
        const dataset = accepted(() => datasetKeys(p2, n2));
        fc.pre(queue !== undefined && dataset !== undefined);
        expect([dataset.items, dataset.meta].filter((k) => queue.all.includes(k))).toEqual([]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('every prefix that was not ambiguous keeps its keys (existing queues stay where they are)', () => {
    fc.assert(
      fc.property(part, part, (prefix, name) => {
        const keys = accepted(() => queueKeys(prefix, name));
        fc.pre(keys !== undefined);
        expect(keys.tag).toBe(`{${prefix}:rq:${name}}`);
        expect(keys.meta).toBe(`{${prefix}:rq:${name}}:meta`);
      }),
    );
    expect(queueKeys('crawlee', 'my-crawl').tag).toBe('{crawlee:rq:my-crawl}');
    expect(queueKeys('crawlee', 'rq:a').tag).toBe('{crawlee:rq:rq:a}');
    expect(datasetKeys('crawlee', 'default').items).toBe('{crawlee:ds:default}:items');
  });
});
