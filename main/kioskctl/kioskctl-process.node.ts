import path from 'node:path';
import { text as readAll } from 'node:stream/consumers';
import { parseCliArgs } from '../cli-args.node.ts';
import type { AutostartSource } from '../autostart/autostart.node.ts';
import { runKioskctl } from './commands.node.ts';

/**
 * kioskctl as a process runs it, from `npm run kioskctl` or from the packaged app
 * (`loyalty-kiosk --kioskctl ...`): `[--data DIR] <command>` parsed, the process's stdin and
 * output wired, the exit code returned. `invocation` is how the usage line names it.
 */
export function runKioskctlProcess(
  argv: string[],
  { defaultDataDir, invocation, autostart }: { defaultDataDir: string; invocation: string; autostart?: AutostartSource },
): Promise<number> {
  const { values, positionals } = parseCliArgs(
    argv,
    { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    `usage: ${invocation} [--data DIR] <command> (try --help)`,
  );
  return runKioskctl({
    dataDir: path.resolve(values.data ?? defaultDataDir),
    args: values.help ? ['help'] : positionals,
    keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
    stdin: { isTTY: process.stdin.isTTY === true, read: () => readAll(process.stdin) },
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    autostart,
  });
}
