import path from 'node:path';
import { text as readAll } from 'node:stream/consumers';
import { parseCliArgs } from '../cli-args.node.ts';
import { defaultDataDir } from '../paths/data-dir.node.ts';
import { runKioskctl } from './commands.node.ts';

/** `npm run kioskctl -- [--data DIR] <command>`: settings for fleets and scripts, no UI needed. */
const { values, positionals } = parseCliArgs(
  process.argv.slice(2),
  { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  'usage: npm run kioskctl -- [--data DIR] <command> (try --help)',
);

process.exitCode = await runKioskctl({
  dataDir: path.resolve(values.data ?? defaultDataDir()),
  args: values.help ? ['help'] : positionals,
  keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
  stdin: { isTTY: process.stdin.isTTY === true, read: () => readAll(process.stdin) },
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
