/**
 * Renders rows as a text table with left-aligned text and right-aligned numbers.
 *
 * @param header - column titles
 * @param rows - cells (numbers are right-aligned)
 * @returns the table, one line per row, no trailing newline
 */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatCount(cell) : cell)))];
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (numeric[i] ? String(cell).padStart(widths[i]!) : String(cell).padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** @param n - a count @returns it with thousands separators (`12,345`) */
export function formatCount(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1);
}

/** @param bytes - a size @returns it in B, KiB, MiB or GiB */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** @param ms - a duration @returns it as `3s`, `4m 05s`, `2h 03m` */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** @param lines - key/value pairs @returns them aligned, one per line */
export function keyValues(lines: Array<[string, string | number]>): string {
  const width = Math.max(...lines.map(([key]) => key.length));
  return lines.map(([key, value]) => `${`${key}:`.padEnd(width + 1)}  ${typeof value === 'number' ? formatCount(value) : value}`).join('\n');
}
