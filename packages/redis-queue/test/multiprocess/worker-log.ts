// Reads the event files worker.mjs writes and answers the questions the tests ask of a whole fleet.

/** One worker's events (see worker.mjs for the line format). */
export interface WorkerLog {
  readyAt?: number;
  /** The lock owner key of this worker's queue. */
  clientKey?: string;
  /** Request number → handler start times in this worker. */
  starts: Map<number, number[]>;
  /** Request number → handler end times in this worker. */
  dones: Map<number, number[]>;
  failed: number[];
  /** Lock prolongations of long handlers: request number → outcomes in order. */
  beats: Map<number, ('ok' | 'lost')[]>;
  finishedAt?: number;
  requestsFinished?: number;
  errors: string[];
}

export function parseWorkerLog(text: string): WorkerLog {
  const log: WorkerLog = { starts: new Map(), dones: new Map(), failed: [], beats: new Map(), errors: [] };
  const push = (map: Map<number, number[]>, i: number, ts: number) => map.set(i, [...(map.get(i) ?? []), ts]);
  for (const line of text.split('\n')) {
    // A SIGKILL can cut the last line; only complete, well-formed lines count.
    const [kind, a, b, c] = line.split(' ');
    if (kind === 'R' && c !== undefined) {
      log.readyAt = Number(a);
      log.clientKey = c;
    }
    else if (kind === 'S' && b !== undefined) push(log.starts, Number(a), Number(b));
    else if (kind === 'D' && b !== undefined) push(log.dones, Number(a), Number(b));
    else if (kind === 'X' && b !== undefined) log.failed.push(Number(a));
    else if (kind === 'P' && (c === 'ok' || c === 'lost')) log.beats.set(Number(a), [...(log.beats.get(Number(a)) ?? []), c]);
    else if (kind === 'F' && c !== undefined) {
      log.finishedAt = Number(a);
      log.requestsFinished = Number(b);
    } else if (kind === 'E') log.errors.push(line);
  }
  return log;
}

/** Counts over the whole fleet. */
export interface FleetSummary {
  /** Request number → how many handler runs started, over all workers. */
  startCount: Map<number, number>;
  /** Request number → how many handler runs finished, over all workers. */
  doneCount: Map<number, number>;
  /** Numbers in 1..max never finished by any worker. */
  missing: number[];
  /** Numbers whose handler started more than once. */
  startedTwice: number[];
  /** Numbers whose handler finished more than once. */
  doneTwice: number[];
  totalDone: number;
  /** Latest handler end over all workers. */
  lastDoneAt: number;
}

export function summarize(logs: WorkerLog[], max: number): FleetSummary {
  const startCount = new Map<number, number>();
  const doneCount = new Map<number, number>();
  let lastDoneAt = 0;
  let totalDone = 0;
  for (const log of logs) {
    for (const [i, ts] of log.starts) startCount.set(i, (startCount.get(i) ?? 0) + ts.length);
    for (const [i, ts] of log.dones) {
      doneCount.set(i, (doneCount.get(i) ?? 0) + ts.length);
      totalDone += ts.length;
      lastDoneAt = Math.max(lastDoneAt, ...ts);
    }
  }
  const missing: number[] = [];
  for (let i = 1; i <= max; i++) if (!doneCount.has(i)) missing.push(i);
  return {
    startCount,
    doneCount,
    missing,
    startedTwice: [...startCount].filter(([, n]) => n > 1).map(([i]) => i).sort((x, y) => x - y),
    doneTwice: [...doneCount].filter(([, n]) => n > 1).map(([i]) => i).sort((x, y) => x - y),
    totalDone,
    lastDoneAt,
  };
}

/** Request numbers this worker started but did not finish (its in-flight work when it died). */
export function inFlight(log: WorkerLog): number[] {
  return [...log.starts.keys()].filter((i) => (log.starts.get(i)?.length ?? 0) > (log.dones.get(i)?.length ?? 0));
}

/** Total handler runs this worker finished. */
export function doneTotal(log: WorkerLog): number {
  let n = 0;
  for (const ts of log.dones.values()) n += ts.length;
  return n;
}

/** Total handler runs this worker started. */
export function startTotal(log: WorkerLog): number {
  let n = 0;
  for (const ts of log.starts.values()) n += ts.length;
  return n;
}
