import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { CliUsageError } from './errors/cli-usage-error.js';

/**
 * Reads the lines of a file, or of stdin for `-` / no file.
 *
 * @param file - a path, `-` or undefined
 * @param stdin - the stdin stream
 * @returns the lines (without line ends)
 * @throws {@link CliUsageError} when reading stdin from a terminal (nothing piped in) or the file cannot be read
 */
export async function readLines(file: string | undefined, stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string[]> {
  const fromStdin = file === undefined || file === '-';
  if (fromStdin && stdin.isTTY) throw new CliUsageError('no input: pass a file, or pipe URLs / JSON lines into stdin (`-`)');
  const input = fromStdin ? stdin : createReadStream(file);
  const lines: string[] = [];
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) lines.push(line);
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return lines;
}
