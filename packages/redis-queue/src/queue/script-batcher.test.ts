import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ScriptBatcher } from './script-batcher.js';

/** A batcher whose script calls are answered only when the test says so. */
function controlled() {
  const calls: Array<{ items: number[]; answer: () => void }> = [];
  const batcher = new ScriptBatcher<number, number>(
    (items) =>
      new Promise((resolve) => calls.push({ items, answer: () => resolve(items.map((i) => i * 10)) })),
    100,
    (item) => String(item),
  );
  return { batcher, calls };
}

describe('ScriptBatcher', () => {
  it('merges the calls of one event-loop turn into one script call', async () => {
    const { batcher, calls } = controlled();
    const results = [batcher.call(1), batcher.call(2), batcher.call(3)];
    await nextTurn();
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    calls[0]!.answer();
    expect(await Promise.all(results)).toEqual([10, 20, 30]);
  });

  it('while a script call is in flight, the calls of later turns wait for its reply and go out together', async () => {
    const { batcher, calls } = controlled();
    const first = batcher.call(1);
    await nextTurn();
    const later = [batcher.call(2)];
    await nextTurn();
    later.push(batcher.call(3));
    await nextTurn();
    // Three turns, but only the first call was sent: 2 and 3 wait for its reply.
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0]!.answer();
    expect(await first).toBe(10);
    await nextTurn();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3]]);
    calls[1]!.answer();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('flushNow sends the waiting items at once, in flight or not (call order with other commands)', async () => {
    const { batcher, calls } = controlled();
    void batcher.call(1);
    await nextTurn();
    void batcher.call(2);
    expect(batcher.holds('2')).toBe(true);
    batcher.flushNow();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    expect(batcher.holds('2')).toBe(false);
  });
});
