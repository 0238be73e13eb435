import { log } from 'crawlee';
import { stripColorsUnlessWanted } from './log-colors.js';
import { maskInText } from './mask-credentials.js';

/** Crawlee's SIGINT advice ("To resume, do: CRAWLEE_PURGE_ON_START=0 npm start"): wrong here, the queue lives in Redis. */
const WRONG_ADVICE = 'CRAWLEE_PURGE_ON_START';

let installed = false;

/**
 * Filters every line that goes through Crawlee's logger (ours, Crawlee's own, the crawler's children share one
 * logger object): masks the credentials of any URL in it, and drops Crawlee's resume advice, which is wrong for a
 * shared Redis queue (a rerun with the same `--queue` resumes; `purgeOnStart` never empties it). Colours only on a
 * terminal, and never with `NO_COLOR` (see log-colors.ts).
 */
export function installLogFilter(): void {
  if (installed) return;
  installed = true;
  stripColorsUnlessWanted();
  const logger = log.getOptions().logger as { log: (level: number, message: unknown, ...rest: unknown[]) => void };
  const original = logger.log.bind(logger);
  logger.log = (level, message, ...rest) => {
    if (typeof message === 'string') {
      if (message.includes(WRONG_ADVICE)) return;
      original(level, maskInText(message), ...rest);
      return;
    }
    original(level, message, ...rest);
  };
}
