// The dashboard page: polls /api/overview every 2 s, keeps the time series in memory (the server keeps none), and
// draws them with uPlot (served by the dashboard itself, no CDN).
/* global document, fetch, setInterval, uPlot */
'use strict';

const POLL_MS = 2000;
const MAX_POINTS = 900; // 30 minutes at one point per poll
const COLORS = { pending: '#3b82f6', handled: '#16a34a', rate: '#9333ea', dead: '#dc2626', dedup: '#d97706', memory: '#0891b2', locked: '#f59e0b', waiting: '#e11d48' };
const POLITE_STATS = [['hosts', 'Hosts with requests'], ['hostsWaiting', 'Hosts waiting'], ['longestWait', 'Longest wait'], ['delayed', 'Delayed retries']];
const STATS = [
  ['total', 'Total'], ['pending', 'Pending'], ['locked', 'Locked'], ['handled', 'Handled'],
  ['rate', 'Rate /s'], ['dedupHits', 'Dedup hits'], ['deadLetters', 'Dead letters'],
];

const queues = new Map(); // name -> { el, series, charts, last }
const memory = { t: [], bytes: [], chart: null };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function bytes(n) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

const MIN_WINDOW_SECS = 60; // the narrowest time window a chart shows

// The x range: the points' times, at least MIN_WINDOW_SECS ending at the newest. Read from the data, not from uPlot's
// proposal: with one point (the server's first snapshot) uPlot 1.6 proposes 86400 / 1e-3 s (an axis running years
// ahead, the point off to the left) for a time scale in seconds.
function timeWindow(times) {
  const last = times.length > 0 ? times[times.length - 1] : Date.now() / 1000;
  const first = times.length > 0 ? times[0] : last;
  return last - first < MIN_WINDOW_SECS ? [last - MIN_WINDOW_SECS, last] : [first, last];
}

// A line needs two points: until the second poll, each series shows its one point as a dot.
const onePoint = (u) => u.data[0].length === 1;

function chart(target, series, height = 160, xSpace = 60) {
  const width = Math.max(280, target.clientWidth || 320);
  return new uPlot({
    width, height,
    legend: { live: false },
    cursor: { drag: { x: false, y: false } },
    // Counts and memory read best from zero (a flat line near the top of a tight range looks like a big change).
    scales: { x: { time: true, range: (u) => timeWindow(u.data[0]) }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [{ stroke: '#6b7385', grid: { stroke: '#eef1f6' }, space: xSpace }, { stroke: '#6b7385', grid: { stroke: '#eef1f6' }, size: 56 }],
    series: [{}, ...series.map(([label, color]) => ({ label, stroke: color, width: 2, fill: `${color}14`, points: { show: onePoint, size: 8 } }))],
  }, [[], ...series.map(() => [])], target);
}

function push(array, value) {
  array.push(value);
  if (array.length > MAX_POINTS) array.shift();
}

function createQueueCard(name) {
  const stats = el('div', { class: 'stats' });
  for (const [key, label] of STATS) {
    stats.append(el('div', { class: `stat ${key}` }, el('div', { class: 'label', text: label }), el('div', { class: 'value', 'data-stat': key, text: '–' })));
  }
  const plots = ['requests', 'rate', 'problems'].map((id) => el('div', { class: 'chart', 'data-chart': id }));
  const titles = ['Pending and handled', 'Handled per second', 'Dead letters and dedup hits'];
  const charts = el('div', { class: 'charts' }, ...plots.map((plot, n) => el('div', {}, el('div', { class: 'chart-title', text: titles[n] }), plot)));
  const workers = el('div', { 'data-table': 'workers' });
  const dead = el('div', { 'data-table': 'dead-letters' });
  const card = el('section', { class: 'card', 'data-queue': name },
    el('div', { class: 'queue-head' }, el('h2', { text: name }), el('span', { class: 'tag', text: 'request queue' })),
    stats, charts, createPolitenessPanel(), createShardsPanel(),
    el('h3', {}, 'Workers ', el('span', { class: 'source', 'data-worker-source': '' })), workers,
    el('h3', { text: 'Dead letters' }), dead);
  document.getElementById('queues').append(card);
  const entry = {
    card,
    series: { t: [], pending: [], handled: [], rate: [], dead: [], dedup: [] },
    charts: {
      requests: chart(plots[0], [['pending', COLORS.pending], ['handled', COLORS.handled]]),
      rate: chart(plots[1], [['req/s', COLORS.rate]]),
      problems: chart(plots[2], [['dead letters', COLORS.dead], ['dedup hits', COLORS.dedup]]),
    },
    last: undefined,
    polite: { t: [], waiting: [], delayed: [], chart: null },
    shardChart: null,
  };
  queues.set(name, entry);
  return entry;
}

function table(columns, rows, render, numeric = []) {
  const head = el('tr', {}, ...columns.map((c) => el('th', { class: numeric.includes(c) ? 'num' : '', text: c })));
  return el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows.map(render)));
}

function age(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

function renderWorkers(entry, workers, at) {
  const target = entry.card.querySelector('[data-table="workers"]');
  const alive = workers.filter((w) => w.state === 'alive').length;
  entry.card.querySelector('[data-worker-source]').textContent = `(${alive} alive of ${workers.length}, from worker stats)`;
  if (workers.length === 0) {
    target.replaceChildren(el('div', { class: 'none', text: 'No worker has published stats yet (workers publish from their first lock on).' }));
    return;
  }
  const columns = ['Worker', 'State', 'Handled', 'Failed', 'Retried', 'Locks', 'Lapses', 'Req/s', 'Up', 'Last seen'];
  target.replaceChildren(table(columns, workers, (w) =>
    el('tr', { 'data-worker': w.id, 'data-state': w.state },
      el('td', { class: 'mono', text: w.id }),
      el('td', {}, el('span', { class: `state ${w.state}`, text: w.state })),
      el('td', { class: 'num', 'data-field': 'handled', text: String(w.handled) }),
      el('td', { class: 'num', 'data-field': 'failed', text: String(w.failed) }),
      el('td', { class: 'num', 'data-field': 'retried', text: String(w.retried) }),
      el('td', { class: 'num', 'data-field': 'locks', text: String(w.locks) }),
      el('td', { class: 'num', 'data-field': 'lapses', title: 'times its liveness heartbeat lapsed: its locks may have been refetched', text: String(w.lapses) }),
      el('td', { class: 'num', text: w.rate.toFixed(1) }),
      el('td', { text: w.startedAt ? age(Date.parse(w.lastSeen) - Date.parse(w.startedAt)) : '–' }),
      el('td', { text: `${age(at - Date.parse(w.lastSeen))} ago` })), ['Handled', 'Failed', 'Retried', 'Locks', 'Lapses', 'Req/s']));
}

async function requeue(queue, id, button) {
  button.disabled = true;
  button.textContent = 'Requeueing…';
  try {
    const res = await fetch(`/api/queues/${encodeURIComponent(queue)}/dead-letters/${encodeURIComponent(id)}/requeue`, {
      method: 'POST', headers: { 'x-dashboard': '1' },
    });
    const body = await res.json();
    if (!res.ok || body.requeued !== 1) throw new Error(body.error ?? 'already gone');
    button.closest('tr').remove();
  } catch (error) {
    button.textContent = `Failed: ${error.message}`;
  }
  poll();
}

function renderDeadLetters(entry, queue) {
  const target = entry.card.querySelector('[data-table="dead-letters"]');
  if (queue.deadLetters.length === 0) {
    target.replaceChildren(el('div', { class: 'none', text: 'No dead letters.' }));
    return;
  }
  target.replaceChildren(table(['Id', 'Source', 'Reason', 'Moved at', 'Raw entry', ''], queue.deadLetters, (letter) => {
    const button = el('button', { class: 'requeue', type: 'button', text: 'Requeue' });
    button.addEventListener('click', () => requeue(queue.name, letter.id, button));
    return el('tr', { 'data-dead-letter': letter.id },
      el('td', { class: 'mono', text: letter.id }), el('td', { text: letter.source }),
      el('td', { class: 'reason', text: letter.reason }), el('td', { text: new Date(letter.at).toLocaleString() }),
      el('td', { class: 'mono', text: letter.preview }), el('td', {}, button));
  }));
}

// ---- Politeness: hosts waiting, the longest wait, delayed retries, the busiest and longest-waiting hosts ----

function createPolitenessPanel() {
  const tiles = el('div', { class: 'stats' });
  for (const [key, label] of POLITE_STATS) {
    tiles.append(el('div', { class: `stat polite-${key}` }, el('div', { class: 'label', text: label }), el('div', { class: 'value', 'data-polite': key, text: '–' })));
  }
  return el('div', { class: 'panel', 'data-panel': 'politeness', hidden: '' },
    el('h3', {}, 'Politeness ', el('span', { class: 'source', 'data-polite-settings': '' })),
    tiles,
    el('div', { class: 'split' },
      el('div', {}, el('div', { class: 'chart-title', text: 'Hosts waiting and delayed retries' }), el('div', { class: 'chart', 'data-chart': 'politeness' })),
      el('div', {}, el('div', { class: 'chart-title', text: 'Top hosts (in flight, wait)' }), el('div', { 'data-table': 'hosts' }))));
}

function secs(value) {
  return value >= 60 ? age(value * 1000) : `${value.toFixed(1)}s`;
}

function renderPoliteness(entry, p, t) {
  const panel = entry.card.querySelector('[data-panel="politeness"]');
  panel.hidden = !p.enabled;
  if (!p.enabled) return;
  const limit = p.maxConcurrencyPerHost === 0 ? 'no limit per host' : `at most ${p.maxConcurrencyPerHost} per host`;
  panel.querySelector('[data-polite-settings]').textContent = `(min delay ${p.minDelaySecs}s, ${limit})`;
  const values = { hosts: p.hosts, hostsWaiting: p.hostsWaiting, longestWait: secs(p.longestWaitSecs), delayed: p.delayed };
  for (const [key] of POLITE_STATS) panel.querySelector(`[data-polite="${key}"]`).textContent = String(values[key]);
  const s = entry.polite;
  push(s.t, t); push(s.waiting, p.hostsWaiting); push(s.delayed, p.delayed);
  s.chart ??= chart(panel.querySelector('[data-chart="politeness"]'), [['hosts waiting', COLORS.waiting], ['delayed retries', COLORS.locked]]);
  s.chart.setData([s.t, s.waiting, s.delayed]);
  // One row per host named in either list: the busiest first, then the longest waits.
  const hosts = [...new Set([...Object.keys(p.inFlight), ...Object.keys(p.waiting ?? {})])].slice(0, 10);
  const target = panel.querySelector('[data-table="hosts"]');
  if (hosts.length === 0) {
    target.replaceChildren(el('div', { class: 'none', text: 'No host in flight or waiting.' }));
    return;
  }
  target.replaceChildren(table(['Host', 'In flight', 'Wait'], hosts, (host) =>
    el('tr', { 'data-host': host },
      el('td', { class: 'mono', text: host }),
      el('td', { class: 'num', 'data-field': 'inFlight', text: String(p.inFlight[host] ?? 0) }),
      el('td', { class: 'num', 'data-field': 'wait', text: p.waiting?.[host] === undefined ? '–' : secs(p.waiting[host]) })), ['In flight', 'Wait']));
}

// ---- Shards: per-shard pending / locked / handled as stacked bars, so a skewed shard stands out ----

function createShardsPanel() {
  return el('div', { class: 'panel', 'data-panel': 'shards', hidden: '' },
    el('h3', {}, 'Shards ', el('span', { class: 'source', 'data-shard-skew': '' })),
    el('div', { class: 'split' },
      el('div', {}, el('div', { class: 'chart-title', text: 'Per shard: locked, pending, handled (stacked)' }), el('div', { class: 'chart', 'data-chart': 'shards' })),
      el('div', { 'data-table': 'shards' })));
}

function shardChart(target, count) {
  const width = Math.max(280, target.clientWidth || 320);
  const bars = uPlot.paths.bars({ size: [0.7, 48] });
  // Drawn tallest first: the bar of (pending + handled), over it pending, over that locked, reads as a stack.
  const series = [['handled', COLORS.handled, (s) => s.pending + s.handled], ['pending', COLORS.pending, (s) => s.pending], ['locked', COLORS.locked, (s) => s.locked]];
  const plot = new uPlot({
    width, height: 180,
    legend: { show: true, live: false },
    cursor: { show: false },
    scales: { x: { time: false, range: [-0.5, count - 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      { stroke: '#6b7385', grid: { show: false }, splits: () => Array.from({ length: count }, (_, i) => i), values: (_u, splits) => splits.map((i) => `s${i}`) },
      { stroke: '#6b7385', grid: { stroke: '#eef1f6' }, size: 56 },
    ],
    series: [{}, ...series.map(([label, color]) => ({ label, stroke: color, fill: color, width: 0, paths: bars, points: { show: false } }))],
  }, [[], [], [], []], target);
  return { plot, count, values: series.map(([, , f]) => f) };
}

function renderShards(entry, shards) {
  const panel = entry.card.querySelector('[data-panel="shards"]');
  panel.hidden = shards.length <= 1;
  if (shards.length <= 1) return;
  if (!entry.shardChart || entry.shardChart.count !== shards.length) {
    entry.shardChart?.plot.destroy();
    entry.shardChart = shardChart(panel.querySelector('[data-chart="shards"]'), shards.length);
  }
  const { plot, values } = entry.shardChart;
  plot.setData([shards.map((_, i) => i), ...values.map((f) => shards.map(f))]);
  const pending = shards.reduce((n, s) => n + s.pending, 0);
  const busiest = shards.reduce((best, s, i) => (s.pending > shards[best].pending ? i : best), 0);
  panel.querySelector('[data-shard-skew]').textContent = pending === 0
    ? `(${shards.length} shards, nothing pending)`
    : `(${shards.length} shards; busiest s${busiest} holds ${Math.round((100 * shards[busiest].pending) / pending)}% of pending, even would be ${Math.round(100 / shards.length)}%)`;
  panel.querySelector('[data-table="shards"]').replaceChildren(table(['Shard', 'Pending', 'Locked', 'Handled'], shards, (s, i) =>
    el('tr', { 'data-shard': String(i) },
      el('td', { class: 'mono', text: `s${i}` }),
      el('td', { class: 'num', 'data-field': 'pending', text: String(s.pending) }),
      el('td', { class: 'num', 'data-field': 'locked', text: String(s.locked) }),
      el('td', { class: 'num', 'data-field': 'handled', text: String(s.handled) })), ['Pending', 'Locked', 'Handled']));
}

function renderQueue(queue, at) {
  const entry = queues.get(queue.name) ?? createQueueCard(queue.name);
  const t = at / 1000;
  const prev = entry.last;
  const rate = prev && t > prev.t ? Math.max(0, (queue.stats.handled - prev.handled) / (t - prev.t)) : 0;
  entry.last = { t, handled: queue.stats.handled };
  const values = { ...queue.stats, rate: rate.toFixed(1), dedupHits: queue.dedupHits };
  for (const [key] of STATS) entry.card.querySelector(`[data-stat="${key}"]`).textContent = String(values[key]);
  const s = entry.series;
  push(s.t, t); push(s.pending, queue.stats.pending); push(s.handled, queue.stats.handled); push(s.rate, rate);
  push(s.dead, queue.stats.deadLetters); push(s.dedup, queue.dedupHits);
  entry.card.dataset.points = String(s.t.length);
  entry.charts.requests.setData([s.t, s.pending, s.handled]);
  entry.charts.rate.setData([s.t, s.rate]);
  entry.charts.problems.setData([s.t, s.dead, s.dedup]);
  renderPoliteness(entry, queue.politeness, t);
  renderShards(entry, queue.shards ?? []);
  renderWorkers(entry, queue.workers, at);
  renderDeadLetters(entry, queue);
}

/** Draws one snapshot of /api/overview (or the one the server put into the page). */
function render(overview) {
  const status = document.getElementById('status');
  const at = Date.parse(overview.at);
  document.getElementById('redis').textContent = overview.redis;
  document.getElementById('prefix').textContent = overview.keyPrefix;
  document.getElementById('memory').textContent = bytes(overview.memoryBytes);
  push(memory.t, at / 1000); push(memory.bytes, overview.memoryBytes / 1048576);
  memory.chart ??= chart(document.getElementById('memory-chart'), [['used MB', COLORS.memory]], 120, 90);
  memory.chart.setData([memory.t, memory.bytes]);
  for (const queue of overview.queues) renderQueue(queue, at);
  const names = new Set(overview.queues.map((q) => q.name));
  for (const [name, entry] of queues) if (!names.has(name)) { entry.card.remove(); queues.delete(name); }
  document.getElementById('empty').hidden = overview.queues.length > 0;
  status.textContent = `updated ${new Date(at).toLocaleTimeString()}`;
  status.dataset.at = overview.at;
  status.classList.remove('stale');
}

let inFlight = false;
async function poll() {
  if (inFlight) return;
  inFlight = true;
  const status = document.getElementById('status');
  try {
    const res = await fetch('/api/overview', { cache: 'no-store' });
    const overview = await res.json();
    if (!res.ok) throw new Error(overview.error ?? res.statusText);
    render(overview);
    status.dataset.polls = String(Number(status.dataset.polls ?? 0) + 1);
  } catch (error) {
    status.textContent = `no answer: ${error.message}`;
    status.classList.add('stale');
  } finally {
    inFlight = false;
  }
}

function tick() {
  document.getElementById('clock').textContent = new Date().toLocaleString();
}

tick();
setInterval(tick, 1000);
// The server put its first snapshot into the page: draw it now, before the first paint, then poll as usual.
const initial = document.getElementById('initial-overview');
if (initial) render(JSON.parse(initial.textContent));
else poll();
setInterval(poll, POLL_MS);
