import fs from 'node:fs';
import path from 'node:path';
import { buildOutput } from '../../main/paths/build-output.node.ts';

/**
 * A Node program of the kiosk's as `npm run build` bundles it (dist/node), the arguments to give
 * `node`: the code that ships, started in half the CPU of tsx compiling the sources each time.
 */
export function builtCli(name: 'browser-host' | 'kioskctl' | 'sandbox'): string {
  const file = path.join(buildOutput.root, 'dist', 'node', `${name}.js`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" before the tests`);
  return file;
}
