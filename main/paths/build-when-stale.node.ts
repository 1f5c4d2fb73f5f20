import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildOutput } from './build-output.node.ts';

/**
 * `npm run build`, and the build `npm start`, `start:browser` and `kioskctl` make only when a
 * source is newer than the last build: an unchanged tree starts what is built.
 */

/** What the build is made from: a change to any file under these makes the build stale. */
const SOURCES = ['api', 'base', 'common', 'main', 'preload', 'renderer', 'sandbox', 'package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.json'];
/** Tests beside the code: no bundle holds them. */
const TESTS = /\.test(-support)?\.ts$/;
/** The bundles, in the order `npm run build` has always made them. */
const MODES = ['renderer', 'electron-main', 'electron-preload', 'browser-preload', 'node-cli'];
/** Holds the newest source time the last complete build was made from. */
const STAMP = path.join(buildOutput.root, 'dist', '.built-from');

/** The newest modification time (ms) of any file in `SOURCES` under `root`. */
export function newestSourceMs(root: string): number {
  let newest = 0;
  const visit = (file: string) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
    else if (!TESTS.test(file)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(path.join(root, source));
  return newest;
}

/** Whether the last complete build was made from the sources as they are now (none yet: it was not). */
export function buildIsCurrent(root = buildOutput.root, stamp = STAMP): boolean {
  const builtFrom = fs.existsSync(stamp) ? Number(fs.readFileSync(stamp, 'utf8')) : Number.NaN;
  return Number.isFinite(builtFrom) && newestSourceMs(root) <= builtFrom;
}

/** Builds every bundle (the sources' time read first: an edit during the build leaves it stale); exits on a failed build. */
export function build(root = buildOutput.root): void {
  const builtFrom = newestSourceMs(root);
  fs.rmSync(STAMP, { force: true });
  for (const mode of MODES) {
    // Its output on stderr: stdout is the program's own (kioskctl's answers are read by scripts).
    const built = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--mode', mode], { cwd: root, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  fs.writeFileSync(STAMP, `${builtFrom}\n`);
}

/** Builds unless the last build is current: said in one line, for it takes seconds. */
export function buildWhenStale(root = buildOutput.root): void {
  if (buildIsCurrent(root)) return;
  process.stderr.write('The sources changed since the last build: building first.\n');
  build(root);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--always')) build();
  else buildWhenStale();
}
