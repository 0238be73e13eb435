#!/usr/bin/env node
// Renders RESULTS.md (and with --write the docs/scale-and-memory.md section) again from the last run's .tmp/RESULTS.json, after a
// change to report.mjs: no measurement is repeated.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { markdown, writeSection } from './report.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// --section <tag>: a run written with that tag (e.g. bench-scale-rates, from .tmp/RESULTS-<tag>.json).
const at = process.argv.indexOf('--section');
const tag = at > 0 ? process.argv[at + 1] : 'bench-scale';
const { meta, rows } = JSON.parse(readFileSync(here(tag === 'bench-scale' ? './.tmp/RESULTS.json' : `./.tmp/RESULTS-${tag}.json`), 'utf8'));
const section = markdown(rows, meta) + `\n\nRun took ${meta.minutes.toFixed(1)} min.`;
console.log(section);
writeSection(section, here('./RESULTS.md'), tag);
if (process.argv.includes('--write')) writeSection(section, here('../../docs/scale-and-memory.md'), tag);
