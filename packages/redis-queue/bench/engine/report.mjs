// The markdown of bench:engine's RESULTS.md.

const f = (x, digits = 1) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
const n = (x) => (x === undefined ? '–' : Math.round(x).toLocaleString('en'));
const SHAPED = 'shaped, concurrency 50';

function crawlTable(rows) {
  const out = [
    '| workload | build | Redis CPU µs per request | of it adds | commands per request | of it adds | req/s | requests |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const rate = r.scrapy ? `${n(r.rate)} pops/s` : n(r.rate);
    out.push(
      `| ${r.group} | ${r.build} | **${f(r.cpuUs)}** | ${f(r.add.cpuUs)} | **${f(r.commands, 2)}** | ${f(r.add.commands, 2)} | ${rate} | ${n(r.handled)} |`,
    );
  }
  return out;
}

function singleTable(rows) {
  const anchor = rows.find((r) => r.id === 'v01');
  const out = [
    '| build | req/s | vs 0.1 | Redis CPU µs per request | commands per request |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    out.push(
      `| ${r.build} | ${n(r.rate)} | ${anchor ? `${f(r.rate / anchor.rate, 2)}x` : '–'} | ${f(r.cpuUs)} | ${f(r.commands, 2)} |`,
    );
  return out;
}

function bytesTable(rows) {
  const builds = [...new Set(rows.map((r) => r.build))];
  const out = [`| uniqueKey kind | ${builds.join(' | ')} |`, `|---|${builds.map(() => '---:').join('|')}|`];
  const kinds = {
    normalized: 'normalized multi-parameter URL (`?ref=list&page=k`: uniqueKey ≠ URL)',
    fingerprint: 'Scrapy fingerprint (`withScrapyFingerprint`, 40 hex)',
    plain: 'plain URL (`?page=k&ref=list`: uniqueKey = URL)',
  };
  for (const [kind, label] of Object.entries(kinds)) {
    const cells = builds
      .map((b) => rows.find((r) => r.kind === kind && r.build === b))
      .map((r) => (r ? `${f(r.perPending)} B` : '–'));
    if (cells.some((c) => c !== '–')) out.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return out;
}

/** INFO commandstats deltas per request of the shaped concurrency-50 rows, per phase, one column pair per build. */
function commandTable(rows) {
  const shaped = rows.filter((r) => r.group === SHAPED);
  if (shaped.length === 0) return [];
  const per = (calls, handled) => Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, v / handled]));
  const cols = shaped.map((r) => ({
    build: r.build,
    add: per(r.add.calls, r.handled),
    crawl: per(r.crawl.calls, r.handled),
    r,
  }));
  const names = [...new Set(cols.flatMap((c) => [...Object.keys(c.add), ...Object.keys(c.crawl)]))];
  const weight = (name) => (cols[0].add[name] ?? 0) + (cols[0].crawl[name] ?? 0);
  names.sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  const out = [
    `| command | ${cols.map((c, i) => `[${i + 1}] adds | [${i + 1}] crawl`).join(' | ')} |`,
    `|---|${cols.map(() => '---:|---:').join('|')}|`,
  ];
  const cell = (x) => (x ? f(x, 2) : '');
  for (const name of names)
    out.push(`| ${name} | ${cols.map((c) => `${cell(c.add[name])} | ${cell(c.crawl[name])}`).join(' | ')} |`);
  out.push(
    `| **all** | ${cols.map((c) => `**${f(c.r.add.commands, 2)}** | **${f(c.r.crawl.commands, 2)}**`).join(' | ')} |`,
  );
  out.push(
    `| Redis CPU µs | ${cols.map((c) => `${f(c.r.add.cpuUs)} | ${f(c.r.crawl.cpuUs)}`).join(' | ')} |`,
  );
  out.push(
    `| of it running scripts (commandstats usec: wall time, above CPU on a loaded machine) | ${cols.map((c) => `${f(c.r.add.scriptUs)} | ${f(c.r.crawl.scriptUs)}`).join(' | ')} |`,
  );
  out.push('', cols.map((c, i) => `[${i + 1}] ${c.build}`).join('; '));
  return out;
}

/** The MONITOR profile of one build: per phase and script, calls and commands per request. */
function scriptTable(p) {
  const out = [
    `${p.build}, ${n(p.handled)} requests:`,
    '',
    '| phase | script | calls per request | commands per call (EVALSHA included) | commands per request | inside, per request |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const phase of ['add', 'crawl']) {
    const entries = Object.entries(p[phase]).map(([script, s]) => {
      const inner = Object.values(s.inner).reduce((a, b) => a + b, 0);
      return { script, calls: s.calls, total: s.calls + inner, inner: s.inner };
    });
    entries.sort((a, b) => b.total - a.total);
    for (const e of entries) {
      const top = Object.entries(e.inner)
        .sort((a, b) => b[1] - a[1])
        .map(([c, k]) => `${c} ${f(k / p.handled, 2)}`)
        .join(', ');
      const perCall = e.calls > 0 ? f(e.total / e.calls, 1) : '–';
      out.push(
        `| ${phase} | ${e.script} | ${e.calls > 0 ? f(e.calls / p.handled, 3) : '–'} | ${perCall} | ${f(e.total / p.handled, 2)} | ${top} |`,
      );
    }
    const all = entries.reduce((s, e) => s + e.total, 0);
    out.push(`| ${phase} | **all** | | | **${f(all / p.handled, 2)}** | |`);
  }
  return out;
}

/** The whole RESULTS.md. */
export function markdown(results, meta) {
  const c = meta.counts;
  const out = [
    '# bench:engine: what one request costs the Redis server',
    '',
    `Made by \`${meta.command}\` in packages/redis-queue on ${meta.date.slice(0, 16).replace('T', ' ')} UTC; ${meta.machine}, Node ${meta.node}, ` +
      `Redis ${meta.redisVersion} (one redis-server of the bench's own, every row in the same run), Crawlee ${meta.crawlee}. ` +
      `The run took ${f(meta.minutes)} min. Load average (1, 5, 15 min) ${meta.loadBefore} before, ${meta.loadAfter} after: the machine is shared, so rates move ` +
      'with other work; CPU µs and commands per request move much less.',
    '',
    `Two worker processes (each a Crawlee \`BasicCrawler\`, no-op handler unless the row says otherwise) crawl one queue of ` +
      `${n(c.count)} requests (${n(c.autoscaled)} for the autoscaled pool, ${n(c.slow)} for the 200 ms handler) seeded from a third process. Redis CPU is the \`INFO cpu\` delta ` +
      '(`used_cpu_user + used_cpu_sys`) over the adds and the crawl; commands are `INFO commandstats` calls (the commands inside ' +
      'scripts included, and the EVALSHA itself); req/s from the release of the workers to the last handled request. The ' +
      "scrapy-redis rows run the vendored scheduler code with Debian's Scrapy: one process `request_seen` + `push` per request, " +
      'then two processes `pop` until empty (a pop rate: no Crawlee in the loop).',
    '',
    ...crawlTable(results.crawl),
    '',
  ];
  if (results.single.length > 0) {
    out.push(
      `## One worker's crawl loop (concurrency 50, ${n(c.single)} requests)`,
      '',
      ...singleTable(results.single),
      '',
    );
  }
  if (results.bytes.length > 0) {
    out.push(
      `## Redis bytes per pending request (${n(c.bytes)} requests, \`used_memory\` delta)`,
      '',
      ...bytesTable(results.bytes),
      '',
    );
  }
  const commands = commandTable(results.crawl);
  if (commands.length > 0) {
    out.push(
      '## Per phase, per command (`INFO commandstats` calls per request, the shaped concurrency-50 rows)',
      '',
      ...commands,
      '',
    );
  }
  if (results.profile.length > 0) {
    out.push(
      `## Per script (MONITOR on a small run: ${n(c.profile)} requests, two workers at concurrency 50)`,
      '',
      'MONITOR shows each EVALSHA before the commands its script runs; the SHA-1 maps to the script name the workers ' +
        'registered. `(no script)` is what the clients send outside scripts.',
      '',
    );
    for (const p of results.profile) out.push(...scriptTable(p), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
