import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { buildOutput } from '../paths/build-output.node.ts';
import { buildWhenStale } from '../paths/build-when-stale.node.ts';

/**
 * `npm start`: runs the built app in Electron (built first only when a source changed). Where the
 * Electron binary is missing and cannot be downloaded (offline kiosk images, CI), says so in one
 * line and runs the browser host instead.
 */
const dev = process.argv.includes('--dev');
const passThrough = process.argv.slice(2).filter((arg) => arg !== '--dev');

/**
 * The Electron executable, downloading it once if the package has not yet. A download that failed
 * is remembered, not retried at every start (it waits up to two minutes): removing the file it
 * names retries it. `KIOSK_ELECTRON_DIR` names another electron package folder (tests use one
 * without a binary).
 */
function electronBinary(): string | null {
  const packageDir = process.env.KIOSK_ELECTRON_DIR ?? path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const installed = () => {
    const pathFile = path.join(packageDir, 'path.txt');
    if (!fs.existsSync(pathFile)) return null;
    const binary = path.join(packageDir, 'dist', fs.readFileSync(pathFile, 'utf8'));
    return fs.existsSync(binary) ? binary : null;
  };
  const failedMark = path.join(packageDir, '.download-failed');
  if (installed()) return installed();
  if (fs.existsSync(failedMark)) {
    process.stdout.write(`Electron's download failed before (${fs.readFileSync(failedMark, 'utf8').trim()}); not retried. To retry: rm ${failedMark}\n`);
    return null;
  }
  // The download is quiet and can take minutes: say what the wait is for.
  process.stdout.write('Electron binary not downloaded yet: downloading it (this can take a few minutes)...\n');
  spawnSync(process.execPath, [path.join(packageDir, 'install.js')], { stdio: 'ignore', timeout: 120_000 });
  if (!installed()) fs.writeFileSync(failedMark, `${new Date().toISOString()}\n`);
  return installed();
}

buildWhenStale();
const electron = electronBinary();
const child = electron
  ? spawn(electron, [buildOutput.root, ...passThrough], {
      stdio: 'inherit',
      env: { ...process.env, ...(dev ? { KIOSK_DEV: '1' } : {}) },
    })
  : (process.stdout.write('Electron binary not available here (not downloaded, no network): starting the browser host with the system Chromium.\n'),
    spawn(process.execPath, [path.join('dist', 'node', 'browser-host.js'), ...passThrough], {
      stdio: 'inherit',
      cwd: buildOutput.root,
    }));
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
