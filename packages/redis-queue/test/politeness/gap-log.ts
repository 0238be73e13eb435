// What polite consumers record (in process or in worker processes) and the checks on it: per host, the gap
// between the end of one request (or its start, when requests overlap) and the start of the next, and the most
// requests of one host in flight at once.

/** One request as a consumer ran it: host, start (after the lock reply) and end (before the handled mark), ms. */
export interface Visit {
  host: string;
  start: number;
  end: number;
}

/** Per host: the smallest gap between the start of a request and the later of the previous start and end
 * (the rule the queue enforces with maxConcurrencyPerHost 1), in ms. @param visits - all visits */
export function smallestGaps(visits: readonly Visit[]): Map<string, number> {
  const byHost = new Map<string, Visit[]>();
  for (const v of visits) byHost.set(v.host, [...(byHost.get(v.host) ?? []), v]);
  const gaps = new Map<string, number>();
  for (const [host, list] of byHost) {
    list.sort((a, b) => a.start - b.start);
    let smallest = Number.POSITIVE_INFINITY;
    for (let i = 1; i < list.length; i++) smallest = Math.min(smallest, list[i]!.start - Math.max(list[i - 1]!.start, list[i - 1]!.end));
    gaps.set(host, smallest);
  }
  return gaps;
}

/** Per host: the smallest gap between two starts, in ms. @param visits - all visits */
export function smallestStartGaps(visits: readonly Visit[]): Map<string, number> {
  const byHost = new Map<string, number[]>();
  for (const v of visits) byHost.set(v.host, [...(byHost.get(v.host) ?? []), v.start]);
  const gaps = new Map<string, number>();
  for (const [host, starts] of byHost) {
    starts.sort((a, b) => a - b);
    let smallest = Number.POSITIVE_INFINITY;
    for (let i = 1; i < starts.length; i++) smallest = Math.min(smallest, starts[i]! - starts[i - 1]!);
    gaps.set(host, smallest);
  }
  return gaps;
}

/** Per host: the most visits whose [start, end) overlap. @param visits - all visits */
export function mostInFlight(visits: readonly Visit[]): Map<string, number> {
  const events = new Map<string, Array<[number, number]>>();
  for (const v of visits) {
    const list = events.get(v.host) ?? [];
    list.push([v.start, 1], [v.end, -1]);
    events.set(v.host, list);
  }
  const most = new Map<string, number>();
  for (const [host, list] of events) {
    // Ends before starts at the same instant: a request that ended does not overlap the next.
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let now = 0;
    let max = 0;
    for (const [, delta] of list) max = Math.max(max, (now += delta));
    most.set(host, max);
  }
  return most;
}
