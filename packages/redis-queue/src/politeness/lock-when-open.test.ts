import { describe, expect, it } from 'vitest';
import { lockWhenOpen, type LockHeadResult } from './lock-when-open.js';
import { LockedAhead } from './locked-ahead.js';
import { WakeSignal } from './wake-signal.js';

const flags = { limit: 25, lockSecs: 60, queueModifiedAt: new Date(0), hadMultipleClients: false, queueHasLockedRequests: true };
const empty = (nextOpenInMs?: number): LockHeadResult => ({ ...flags, items: [], ...(nextOpenInMs === undefined ? {} : { nextOpenInMs }) });
const one: LockHeadResult = { ...flags, items: [{ id: 'a', uniqueKey: 'https://a.test/' } as never] };

/** A lock call that answers from a script of results, counting its calls. */
function scripted(...answers: LockHeadResult[]) {
  let calls = 0;
  return { lock: () => Promise.resolve(answers[Math.min(calls++, answers.length - 1)]!), calls: () => calls };
}

describe('lockWhenOpen', () => {
  it('waits until the first host opens, then locks', async () => {
    const s = scripted(empty(150), one);
    const t0 = performance.now();
    const result = await lockWhenOpen(s.lock, 2000);
    expect(result.items).toHaveLength(1);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    expect(s.calls()).toBe(2);
  });

  it('answers at once while requests locked ahead wait for Crawlee (no wait that would hold them back)', async () => {
    const s = scripted(empty(1500), one);
    const ahead = new LockedAhead();
    ahead.add(['x'], 60);
    const t0 = performance.now();
    const result = await lockWhenOpen(s.lock, 2000, new WakeSignal(), () => !ahead.any());
    expect(result.items).toHaveLength(0);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(s.calls()).toBe(1);
    ahead.started('x');
    expect(ahead.any()).toBe(false);
  });

  it('a wake ends the wait early and asks again (a request of this client ended: its host may open first now)', async () => {
    const s = scripted(empty(1500), one);
    const wake = new WakeSignal();
    const t0 = performance.now();
    const pending = lockWhenOpen(s.lock, 2000, wake);
    setTimeout(() => wake.notify(), 50);
    const result = await pending;
    expect(result.items).toHaveLength(1);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(s.calls()).toBe(2);
  });

  it('sleeps one round trip less than the wait, so the next call reaches Redis as the host opens', async () => {
    let calls = 0;
    const lock = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 80));
      return calls === 1 ? empty(200) : one;
    };
    const t0 = performance.now();
    await lockWhenOpen(lock, 2000);
    // 80 ms call, a 200 ms wait told, an 80 ms call: about 280 ms (not 360 ms, a round trip late).
    expect(performance.now() - t0).toBeLessThan(330);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(270);
    expect(calls).toBe(2);
  });

  it('a host opening after the bound is not waited for', async () => {
    const s = scripted(empty(2500), one);
    const result = await lockWhenOpen(s.lock, 2000);
    expect(result.items).toHaveLength(0);
    expect(s.calls()).toBe(1);
  });
});

describe('LockedAhead', () => {
  it('forgets an id once its lock would have expired, and stays bounded', async () => {
    const ahead = new LockedAhead();
    ahead.add(['a'], 0.05);
    expect(ahead.any()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(ahead.any()).toBe(false);
    ahead.add(Array.from({ length: 5000 }, (_, i) => `id${i}`), 60);
    ahead.clear();
    expect(ahead.any()).toBe(false);
  });
});
