import type { CliCommandModule } from '../define-command.js';
import { dashboardCommand } from './dashboard.js';
import { deadLettersCommand } from './dead-letters.js';
import { dropCommand } from './drop.js';
import { exportCommand } from './export.js';
import { failedCommand } from './failed.js';
import { forgetCommand } from './forget.js';
import { lsCommand } from './ls.js';
import { metricsCommand } from './metrics.js';
import { purgeCommand } from './purge.js';
import { seedCommand } from './seed.js';
import { statsCommand } from './stats.js';
import { takeoverCommand } from './takeover.js';
import { versionCommand } from './version.js';
import { watchCommand } from './watch.js';
import { workersCommand } from './workers.js';

/**
 * Every `crawlee-redis` command, in the order `--help` lists them. A new command is one file in this folder built
 * with `defineCliCommand` (see define-command.ts) and one entry here.
 */
export const COMMANDS: readonly CliCommandModule[] = [
  lsCommand,
  statsCommand,
  workersCommand,
  watchCommand,
  seedCommand,
  takeoverCommand,
  deadLettersCommand,
  failedCommand,
  forgetCommand,
  purgeCommand,
  dropCommand,
  metricsCommand,
  dashboardCommand,
  exportCommand,
  versionCommand,
];
