import { describe, expect, it } from 'vitest';
import type { LockHeadResult } from './lock-when-open.js';
import { QuietWindow } from './quiet-window.js';

const flags = { limit: 25, lockSecs: 60, queueModifiedAt: new Date(0), hadMultipleClients: true, queueHasLockedRequests: true };
const locked = (nextOpenInMs?: number): LockHeadResult => ({
  ...flags,
  items: [{ id: 'a', uniqueKey: 'https://a.test/' } as never],
  ...(nextOpenInMs === undefined ? {} : { nextOpenInMs }),
});

describe('QuietWindow', () => {
  it("answers the look-ahead call after a hand-out with nothing, until the script's quiet time", async () => {
    const quiet = new QuietWindow();
    quiet.after(locked(80));
    const answer = quiet.answer(25, 60, true);
    expect(answer?.items).toEqual([]);
    expect(answer?.queueHasLockedRequests).toBe(true);
    expect(answer?.hadMultipleClients).toBe(true);
    expect(answer).not.toHaveProperty('nextOpenInMs');
    // Once: the call after it asks Redis.
    expect(quiet.answer(25, 60, true)).toBeUndefined();
    quiet.after(locked(80));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quiet.answer(25, 60, true)).toBeUndefined();
  });

  it('lasts at most 250 ms however far the next host is', async () => {
    const quiet = new QuietWindow();
    quiet.after(locked(60_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(quiet.answer(25, 60, true)).toBeUndefined();
  });

  it('asks Redis when nothing is locked ahead, after an add/update/release, for limit 0, or without a quiet time', () => {
    const quiet = new QuietWindow();
    quiet.after(locked(1000));
    expect(quiet.answer(25, 60, false)).toBeUndefined();
    expect(quiet.answer(0, 60, true)).toBeUndefined();
    quiet.clear();
    expect(quiet.answer(25, 60, true)).toBeUndefined();
    quiet.after(locked());
    expect(quiet.answer(25, 60, true)).toBeUndefined();
    quiet.after(locked(0));
    expect(quiet.answer(25, 60, true)).toBeUndefined();
    quiet.after({ ...locked(1000), items: [] });
    expect(quiet.answer(25, 60, true)).toBeUndefined();
  });
});
