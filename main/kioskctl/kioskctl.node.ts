import { defaultDataDir } from '../paths/data-dir.node.ts';
import { runKioskctlProcess } from './kioskctl-process.node.ts';

/** `npm run kioskctl -- [--data DIR] <command>`: settings for fleets and scripts, no UI needed. */
process.exitCode = await runKioskctlProcess(process.argv.slice(2), { defaultDataDir: defaultDataDir(), invocation: 'npm run kioskctl --' });
