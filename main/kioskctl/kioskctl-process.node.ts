import path from 'node:path';
import { text as readAll } from 'node:stream/consumers';
import { parseCliArgs } from '../process/cli-args.node.ts';
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
  // kioskctl's own options come before the command; what follows is the command's (fleet ls --json).
  const commandAt = firstPositional(argv);
  const { values, positionals } = parseCliArgs(
    argv.slice(0, commandAt),
    { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    `usage: ${invocation} [--data DIR] <command> (try --help)`,
  );
  return runKioskctl({
    dataDir: path.resolve(values.data ?? defaultDataDir),
    args: values.help ? ['help'] : [...positionals, ...argv.slice(commandAt)],
    keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
    stdin: { isTTY: process.stdin.isTTY === true, read: () => readAll(process.stdin) },
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    autostart,
    // Asked for by fleet watch only: every other command stops at Ctrl-C as any process does.
    untilInterrupted: () => new Promise((resolve) => process.once('SIGINT', () => resolve()).once('SIGTERM', () => resolve())),
    env: process.env,
  });
}

/** Where the command starts: the first word that is no option of kioskctl's own (nor --data's value). */
function firstPositional(argv: string[]): number {
  let index = 0;
  while (index < argv.length && argv[index]!.startsWith('-')) index += argv[index] === '--data' ? 2 : 1;
  return index;
}
