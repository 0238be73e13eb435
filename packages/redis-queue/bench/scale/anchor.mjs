// The anchor row: today's layout (the 0.1 stored format), built from the commit that shipped it, so the scale
// benchmark can run the old code beside the new one in the same run. The sources come out of git (`git archive`)
// into bench/scale/.tmp/ (ignored), and tsup bundles them there; crawlee and ioredis resolve from the workspace.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

/** Last commit with the 0.1 layout (one JSON per request in `data`, `pending` + `avail` sorted sets). */
export const ANCHOR_COMMIT = 'fe2f464b27b21e3bc8b86046d7891e03098a0ed6';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Builds the anchor once (cached by commit) and returns the file URL of its ESM entry. */
export function buildAnchor(commit = ANCHOR_COMMIT) {
  const root = join(here, '.tmp', `anchor-${commit.slice(0, 12)}`);
  const pkg = join(root, 'packages', 'redis-queue');
  const entry = join(pkg, 'dist', 'index.js');
  if (!existsSync(entry)) {
    mkdirSync(root, { recursive: true });
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim();
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'packages/redis-queue/src'], { cwd: top, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', root], { input: tar });
    // A package root of its own, or tsup would find the workspace package's tsconfig above and build into its dist.
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'crawlee-redis-queue-anchor', private: true, type: 'module', peerDependencies: { crawlee: '*', ioredis: '*' } }));
    writeFileSync(join(pkg, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true } }));
    execFileSync('npx', ['tsup', 'src/index.ts', '--format', 'esm', '--target', 'node20', '--loader', '.lua=text', '--out-dir', 'dist', '--no-config', '--silent'], {
      cwd: pkg,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return pathToFileURL(entry).href;
}
