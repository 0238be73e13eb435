import type { Writable } from 'node:stream';
import { exportDataset, type ExportProgress } from '../../dataset/export-dataset.js';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { formatCount } from '../format.js';
import { access, constants } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function progressLine({ written, total }: ExportProgress): string {
  const percent = total > 0 ? ` (${((100 * written) / total).toFixed(0)}%)` : '';
  return `exported ${formatCount(written)} / ${formatCount(total)} items${percent}`;
}

/**
 * `crawlee-redis export <dataset> --format jsonl|csv [--output file] [--unique-by field] [--progress]`: streams a Redis dataset (every
 * worker's `pushData`) chunk by chunk to a file (written as `<file>.partial`, renamed when complete) or to stdout.
 */
export const exportCommand = defineCliCommand(
  'export',
  (c) =>
    c
      .description('stream a Redis dataset (the workers\' pushData) as JSON lines or CSV to a file or stdout')
      .argument('<dataset>', 'dataset name (Crawlee\'s default dataset is "default")')
      .option('--format <format>', 'jsonl (one JSON object per line) or csv (header row from the first item)', 'jsonl')
      .option('-o, --output <file>', 'write to this file (default: stdout)')
      .option('--unique-by <field>', 'keep only the first item of each value of this field (e.g. url): a killed worker\'s page may be pushed twice')
      .option('--chunk-size <n>', 'items read from Redis per round, 1 to 100000', '1000')
      .option('--progress', 'report progress on stderr even when stderr is not a terminal'),
  async (ctx, [name], options) => {
    const format = options.format as string;
    if (format !== 'jsonl' && format !== 'csv') throw new CliUsageError(`--format must be jsonl or csv (got ${JSON.stringify(format)})`);
    const chunkSize = Number(options.chunkSize);
    if (!/^\d+$/.test(String(options.chunkSize)) || chunkSize < 1 || chunkSize > 100_000) {
      throw new CliUsageError(`--chunk-size must be an integer from 1 to 100000 (got ${String(options.chunkSize)})`);
    }
    const output = options.output as string | undefined;
    if (output !== undefined && output.length === 0) throw new CliUsageError('--output must be a file path (omit it to write to stdout)');
    if (output !== undefined) await assertWritableDirectory(output);
    const stderr = ctx.io.stderr as NodeJS.WritableStream & { isTTY?: boolean };
    const tty = stderr.isTTY === true;
    const showProgress = tty || options.progress === true;
    let last: ExportProgress | undefined;
    const out = ctx.io.stdout as unknown as Writable;
    // `export x | head`: the reader closing the pipe ends the export quietly (exit 0), as Unix tools do.
    let pipeClosed = false;
    const onPipeError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') pipeClosed = true;
    };
    if (output === undefined) out.on('error', onPipeError);
    const result = await exportDataset({
      redis: await ctx.redis(),
      keyPrefix: ctx.keyPrefix,
      name: name as string,
      format,
      chunkSize,
      ...(options.uniqueBy !== undefined ? { uniqueBy: options.uniqueBy as string } : {}),
      // Data goes to stdout unmasked: it is the user's own, byte for byte.
      output: output ?? out,
      onProgress: (progress) => {
        last = progress;
        // On a terminal one line is rewritten in place; in a pipe or log, one line per chunk.
        if (showProgress) stderr.write(tty ? `\r${progressLine(progress)}` : `${progressLine(progress)}\n`);
      },
    })
      .catch((error: NodeJS.ErrnoException) => {
        if (output === undefined && (pipeClosed || error.code === 'EPIPE')) return undefined;
        throw error;
      })
      .finally(() => out.off('error', onPipeError));
    if (result === undefined) return;
    const { items, duplicates, withoutField } = result;
    // A field no item has (a typo, `URL` for `url`) dedups nothing: say so rather than look like a clean dataset.
    if (options.uniqueBy !== undefined && withoutField > 0) {
      const field = JSON.stringify(options.uniqueBy);
      const total = items + duplicates;
      const line =
        withoutField === total
          ? `no item has the field ${field}: nothing was deduplicated; check the field name (it is case-sensitive)`
          : `${formatCount(withoutField)} of ${formatCount(total)} items have no field ${field}; they were kept as they are`;
      ctx.warn(line);
    }
    if (showProgress && tty && last) stderr.write('\n');
    if (output === undefined) {
      if (showProgress && !last) stderr.write(`${progressLine({ written: 0, total: 0 })}\n`);
      return;
    }
    const skipped = options.uniqueBy === undefined ? '' : `, ${formatCount(duplicates)} duplicates by ${options.uniqueBy as string} skipped`;
    if (ctx.json) ctx.print(JSON.stringify({ dataset: name, format, output, items, ...(options.uniqueBy !== undefined ? { duplicates } : {}) }));
    else ctx.print(`exported ${formatCount(items)} items of dataset "${name as string}" to ${output} (${format}${skipped})`);
  },
);

/** A usage error (exit 2) before anything is read when `--output`'s directory is missing or not writable. */
async function assertWritableDirectory(output: string): Promise<void> {
  const dir = dirname(resolve(output));
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new CliUsageError(`--output ${JSON.stringify(output)}: cannot write into ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'}); choose a path in a directory you can write to`);
  }
}
