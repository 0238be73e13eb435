import { stripVTControlCharacters } from 'node:util';
import { log } from 'crawlee';

/**
 * Whether a log stream gets ANSI colours: never with `NO_COLOR` set to anything but '' (https://no-color.org);
 * always with `FORCE_COLOR` set to anything but '0'; else only on a terminal, so a log redirected to a file or a pipe
 * stays plain text.
 *
 * @param stream - where the line goes
 * @param env - the environment (the process's by default)
 */
export function colorsWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** Crawlee's log levels that its text logger writes to stderr (console.error, console.warn). */
const STDERR_LEVELS = new Set([1, 3]);

/**
 * Crawlee's text logger colours every line whatever the output is (its colour library looks at `FORCE_COLOR` only),
 * so the lines of a log redirected to a file carry escape codes. This strips them from each line written to a
 * stream that should not get colours ({@link colorsWanted}), deciding per stream (errors and warnings go to stderr).
 * Each process decides for itself: the workers share the coordinator's stdout and stderr.
 */
export function stripColorsUnlessWanted(): void {
  const logger = log.getOptions().logger as { _outputWithConsole?: (level: number, line: string) => void };
  const original = logger._outputWithConsole?.bind(logger);
  if (original === undefined) return;
  const plain = { stdout: !colorsWanted(process.stdout), stderr: !colorsWanted(process.stderr) };
  if (!plain.stdout && !plain.stderr) return;
  logger._outputWithConsole = (level, line) => {
    const toStderr = STDERR_LEVELS.has(level);
    original(level, (toStderr ? plain.stderr : plain.stdout) ? stripVTControlCharacters(line) : line);
  };
}
