#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { jsonlLine } from './cli/run-jsonl.js';
import { errorText } from './conformance/run-case.js';
import { fingerprint, FINGERPRINT_RECIPES, type FingerprintRecipe } from './scrapy/fingerprint.js';
import { appliesEscapeAjax, SCRAPY_REQUEST_VERSIONS, type ScrapyRequestVersion } from './scrapy/request-version.js';

const program = new Command()
  .name('crawlee-scrapy-fingerprint')
  .description(
    'Scrapy request fingerprints of URLs read from stdin, one per line, printed as "<fingerprint> <url>".\n' +
      'With --jsonl, reads the conformance input format (JSON objects) and writes one JSON object per line with\n' +
      'id, canonical_url, safe_url, request_url, fp_url, fp27, fp26, fp_redis and error.',
  )
  .option('--jsonl', 'read JSON lines (conformance input format) and write JSON lines with every field')
  .addOption(new Option('--recipe <name>', 'fingerprint recipe (plain mode)').choices(FINGERPRINT_RECIPES).default('scrapy'))
  .option('--method <method>', 'HTTP method of every request (plain mode)', 'GET')
  .option('--keep-fragments', 'keep #fragments in the hashed URL (plain mode)', false)
  .addOption(
    new Option(
      '--scrapy-request <version>',
      "the Scrapy whose Request() the other fleet runs: '<=2.12' rewrites #!frag to ?_escaped_fragment_=frag " +
        "(escape_ajax), '2.13+' does not; for --recipe scrapy and scrapy-redis, and for --jsonl's request_url, fp_url, " +
        "fp27 and fp_redis (default: 2.13+; scrapy-2.6 always rewrites)",
    ).choices(SCRAPY_REQUEST_VERSIONS),
  )
  .addHelpText(
    'after',
    [
      '',
      'Examples:',
      "  echo 'https://example.com/?b=2&a=1' | crawlee-scrapy-fingerprint",
      "  echo 'https://example.com/app#!page=2' | crawlee-scrapy-fingerprint --recipe scrapy-redis --scrapy-request '<=2.12'",
      '  crawlee-scrapy-fingerprint --jsonl < inputs.jsonl > outputs.jsonl',
      '',
      'Exit status: 0, or 1 when a URL was rejected (plain mode: its line goes to stderr) or, with --jsonl, when an',
      'input line was not a JSON object with a "url" string (its output line carries the error). In --jsonl mode a',
      'URL Scrapy rejects is an expected result (the "error" field), not a failure.',
    ].join('\n'),
  );

program.parse();
const opts = program.opts<{
  jsonl?: boolean;
  recipe: FingerprintRecipe;
  method: string;
  keepFragments: boolean;
  scrapyRequest?: ScrapyRequestVersion;
}>();
if (!opts.jsonl) {
  try {
    appliesEscapeAjax(opts.recipe, opts.scrapyRequest);
  } catch (error) {
    program.error(`error: ${(error as Error).message}`, { exitCode: 2 });
  }
}
const fpOptions = { recipe: opts.recipe, keepFragments: opts.keepFragments, scrapyRequest: opts.scrapyRequest };
const jsonlOptions = { scrapyRequest: opts.scrapyRequest };

let failed = false;
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out: string[] = [];
const flush = (): void => {
  if (out.length) process.stdout.write(out.join(''));
  out.length = 0;
};
rl.on('line', (line) => {
  if (opts.jsonl) {
    if (!line.trim()) return;
    const result = jsonlLine(line, jsonlOptions);
    if (!result.valid) failed = true;
    out.push(result.text + '\n');
  } else {
    const url = line.replace(/\r$/, '');
    if (!url.trim()) return;
    try {
      out.push(`${fingerprint({ url, method: opts.method }, fpOptions)} ${url}\n`);
    } catch (error) {
      failed = true;
      process.stderr.write(`error ${url}: ${errorText(error)}\n`);
    }
  }
  if (out.length >= 256) flush();
});
rl.on('close', () => {
  flush();
  process.exitCode = failed ? 1 : 0;
});
