#!/usr/bin/env node
// Packaging gate for every published workspace package: pack the tarball, lint it with publint and
// @arethetypeswrong/cli, then load every built entry point with both `import` and `require` (and run each bin with
// --help). Runs offline; exits non-zero on the first package that fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packDir = mkdtempSync(join(tmpdir(), 'crawlee-distributed-pack-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
let passed = 0;
let failed = 0;

function check(label, fn) {
  try {
    fn();
    passed++;
    console.log(`  ok   ${label}`);
  } catch (error) {
    failed++;
    console.log(`  FAIL ${label}\n${String(error.stdout ?? '')}${String(error.stderr ?? '')}${error.message}`);
  }
}

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'pipe', encoding: 'utf8' });

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, json: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ json }) => !json.private);
const privateNames = new Set(
  ['packages', 'examples']
    .flatMap((top) => readdirSync(join(root, top)).map((dir) => join(root, top, dir, 'package.json')))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .filter((manifest) => manifest.private)
    .map((manifest) => manifest.name),
);

for (const { dir, json } of packages) {
  console.log(`${json.name}@${json.version}`);
  if (!existsSync(join(dir, 'dist'))) {
    check('built (dist/ exists; run `npm run build` first)', () => {
      throw new Error('no dist/');
    });
    continue;
  }
  let tarball;
  check('npm pack', () => {
    const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], dir));
    tarball = join(packDir, out[0].filename);
  });
  if (!tarball) continue;
  check('publint (tarball)', () => run(bin('publint'), ['run', tarball, '--strict'], dir));
  // Private workspace packages (the bundled redis-kit, test-utils) are never a runtime dependency of a tarball, and
  // no built file imports one: they exist only in this repository.
  check('no private workspace package in dependencies or dist/', () => {
    const runtime = { ...json.dependencies, ...json.peerDependencies, ...json.optionalDependencies };
    const named = Object.keys(runtime).filter((name) => privateNames.has(name));
    if (named.length > 0) throw new Error(`depends on private ${named.join(', ')}`);
    const listing = run('tar', ['-tzf', tarball], dir).split('\n').filter((f) => /^package\/dist\/.*\.(c?js|d\.c?ts)$/.test(f));
    for (const file of listing) {
      const text = readFileSync(join(dir, file.slice('package/'.length)), 'utf8');
      const hit = [...privateNames].find((name) => text.includes(`'${name}`) || text.includes(`"${name}`));
      if (hit) throw new Error(`${file} imports the private package ${hit}; bundle it (tsup noExternal + dts.resolve)`);
    }
  });
  check('attw (tarball, node16 + bundler)', () => run(bin('attw'), [tarball, '--profile', 'node16'], dir));
  const subpaths = Object.keys(json.exports ?? { '.': null }).filter((p) => p !== './package.json');
  for (const sub of subpaths) {
    const spec = sub === '.' ? json.name : `${json.name}/${sub.slice(2)}`;
    check(`require('${spec}')`, () => {
      const out = run(process.execPath, ['-e', `const m = require(${JSON.stringify(spec)}); if (!Object.keys(m).length) throw new Error('no exports'); console.log(Object.keys(m).length)`], root);
      if (!Number(out.trim())) throw new Error(`no exports from ${spec}`);
    });
    check(`import '${spec}'`, () => {
      const out = run(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(spec)}); if (!Object.keys(m).length) throw new Error('no exports'); console.log(Object.keys(m).length)`], root);
      if (!Number(out.trim())) throw new Error(`no exports from ${spec}`);
    });
  }
  for (const [name, file] of Object.entries(typeof json.bin === 'string' ? { [json.name]: json.bin } : (json.bin ?? {}))) {
    check(`bin ${name} --help`, () => {
      const res = spawnSync(process.execPath, [join(dir, file), '--help'], { encoding: 'utf8' });
      if (res.status !== 0 || !res.stdout.includes('Usage')) throw new Error(`exit ${res.status}: ${res.stdout}${res.stderr}`);
    });
    // npm links a bin at install time, before a clone's build: the bin file must be committed (not under dist/),
    // in the tarball, and run from the unpacked tarball. It is unpacked under the package's .tmp/ so the built
    // files resolve their dependencies from the workspace's node_modules.
    const inPackage = file.replace(/^\.\//, '');
    if (inPackage.startsWith('dist/')) {
      // Not a failure yet (the package's owner moves it); a clone's `npx ${name}` does not find it after `npm ci`.
      console.log(`  warn bin ${name}: ${file} is under dist/, so npm ci links it before it exists (commit a bin/ file)`);
      continue;
    }
    check(`bin ${name}: committed outside dist/, runs from the packed tarball`, () => {
      run('git', ['ls-files', '--error-unmatch', inPackage], dir);
      const unpacked = join(dir, '.tmp', 'packed-bin');
      rmSync(unpacked, { recursive: true, force: true });
      run('mkdir', ['-p', unpacked], dir);
      try {
        run('tar', ['-xzf', tarball, '-C', unpacked], dir);
        const res = spawnSync(process.execPath, [join(unpacked, 'package', inPackage), '--help'], { encoding: 'utf8' });
        if (res.status !== 0 || !res.stdout.includes('Usage')) throw new Error(`exit ${res.status}: ${res.stdout}${res.stderr}`);
      } finally {
        rmSync(unpacked, { recursive: true, force: true });
      }
    });
  }
}
check('npm publish --dry-run --workspaces', () => run('npm', ['publish', '--dry-run', '--workspaces', '--ignore-scripts'], root));
check('changeset status', () => run(bin('changeset'), ['status'], root));
rmSync(packDir, { recursive: true, force: true });
console.log(`packaging: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
