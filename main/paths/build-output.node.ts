import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, whether this runs from source (tsx) or from the bundle in dist/main. */
const projectRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();

export const buildOutput = {
  root: projectRoot,
  rendererDir: path.join(projectRoot, 'dist', 'renderer'),
  browserBridgeScript: path.join(projectRoot, 'dist', 'preload', 'browser.preload.js'),
  electronPreload: path.join(projectRoot, 'dist', 'preload', 'electron.preload.cjs'),
};

export function appVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Null when the renderer has been built; otherwise what to do about it. */
export function missingBuild(): string | null {
  const missing = [buildOutput.rendererDir, buildOutput.browserBridgeScript].filter((file) => !fs.existsSync(file));
  return missing.length ? `The kiosk UI is not built yet (${missing.join(', ')} missing): run "npm run build".` : null;
}
