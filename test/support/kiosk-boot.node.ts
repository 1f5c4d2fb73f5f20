import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { until } from './until.std.ts';
import fs from 'node:fs';
import path from 'node:path';
import { buildOutput } from '../../main/paths/build-output.node.ts';
import { CHROMIUM_PATH } from './chromium.node.ts';

/**
 * The shipped boot chain (build/boot) run on this machine as far as it allows: setup-boot for a test
 * user under a scratch root, the credential handed over as loyalty-kiosk-keyring.service would, and
 * greetd's session command under cage with the headless backend. Only what systemd and greetd do
 * themselves is done here by hand, each read from the shipped file that tells them.
 */

export const BOOT_DIR = path.join(buildOutput.root, 'build', 'boot');
/** Where the deb puts build/boot: the shipped files name it. */
const INSTALLED_BOOT_DIR = '/opt/Loyalty Kiosk/boot';

export interface BootUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** Runs setup-boot as the deb's post-install does, for `user`, writing under `root`. */
export function setupBoot(root: string, user: string): { output: string; user: BootUser } {
  const output = execFileSync(path.join(BOOT_DIR, 'setup-boot'), {
    env: { ...process.env, LOYALTY_KIOSK_ROOT: root, LOYALTY_KIOSK_USER: user },
    encoding: 'utf8',
  });
  const [, , uid, gid, , home] = execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).trim().split(':');
  return { output, user: { name: user, uid: Number(uid), gid: Number(gid), home: home! } };
}

/** One `Key=value` of a unit file. */
function unitSetting(file: string, key: string): string {
  const line = fs.readFileSync(file, 'utf8').split('\n').find((entry) => entry.startsWith(`${key}=`));
  if (!line) throw new Error(`${file} has no ${key}=`);
  return line.slice(key.length + 1);
}

/**
 * What loyalty-kiosk-keyring.service does at boot: systemd decrypts LoadCredentialEncrypted= into a
 * private folder (systemd-creds decrypt, its own tool), then ExecStart= hands it to the kiosk user.
 */
export function handOverCredential(root: string, user: BootUser, runDir: string, scratch: string): void {
  const unit = path.join(BOOT_DIR, 'loyalty-kiosk-keyring.service');
  const [name, sealed] = unitSetting(unit, 'LoadCredentialEncrypted').split(':') as [string, string];
  const credentials = fs.mkdtempSync(path.join(scratch, 'credentials-'));
  execFileSync('systemd-creds', ['decrypt', `--name=${name}`, path.join(root, sealed), path.join(credentials, name)], { stdio: 'pipe' });
  const handoff = unitSetting(unit, 'ExecStart').replaceAll('\\x20', ' ').replace(INSTALLED_BOOT_DIR, BOOT_DIR);
  fs.rmSync(runDir, { recursive: true, force: true });
  try {
    execFileSync(handoff, {
      env: {
        ...process.env,
        CREDENTIALS_DIRECTORY: credentials,
        LOYALTY_KIOSK_RUN_DIR: runDir,
        LOYALTY_KIOSK_USER: user.name,
        LOYALTY_KIOSK_PROTECTION_FILE: path.join(root, 'etc', 'loyalty-kiosk', 'keyring.protection'),
      },
      stdio: 'pipe',
    });
  } finally {
    // systemd drops a unit's credentials when it stops.
    fs.rmSync(credentials, { recursive: true, force: true });
  }
}

/** greetd's session command (config.toml, as setup-boot wrote it), with the boot folder where this checkout has it. */
export function greetdSession(root: string): string[] {
  const config = fs.readFileSync(path.join(root, 'etc', 'greetd', 'config.toml'), 'utf8');
  const command = /^command = "(.*)"$/m.exec(config)?.[1];
  if (!command) throw new Error('greetd config.toml has no session command');
  // Words, with '…' kept whole (the install folder has a space).
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => (match[1] ?? match[2]!).replace(INSTALLED_BOOT_DIR, BOOT_DIR));
}

/**
 * A stand-in for Chromium that adds a DevTools port, so the test can look at what is on the cage
 * screen, and reduced motion. Everything else is the caller's (the host's arguments, or the page viewer's).
 */
export function chromiumWithDevTools(folder: string, name: string, port: number): string {
  const script = path.join(folder, name);
  // Reduced motion, as every test's Chromium: drawn without a GPU, the attract screen's drift costs a core.
  fs.writeFileSync(script, `#!/bin/sh\nexec '${CHROMIUM_PATH}' "$@" --disable-gpu --force-prefers-reduced-motion --remote-debugging-port=${port}\n`, { mode: 0o755 });
  return script;
}

/** A session as greetd starts it: as the user, in a clean environment, under cage with no screen. */
export function startSession(command: string[], user: BootUser, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const runtime = fs.mkdtempSync(path.join(user.home, 'runtime-'));
  fs.chownSync(runtime, user.uid, user.gid);
  fs.chmodSync(runtime, 0o700);
  const child = spawn(
    'setpriv',
    [
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--init-groups',
      'env',
      '-i',
      `HOME=${user.home}`,
      `USER=${user.name}`,
      `PATH=${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      `XDG_RUNTIME_DIR=${runtime}`,
      'WLR_BACKENDS=headless',
      'WLR_LIBINPUT_NO_DEVICES=1',
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      ...command,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => (output += String(chunk)));
  // wlroots says this at every frame that cage tries to show a fullscreen client's buffer as it is
  // (then draws it): thousands of lines that would bury what the session said.
  return { child, output: () => output.replace(/^.*Basic output test failed for HEADLESS-1\n/gm, '') };
}

/**
 * Ends a session and everything in it, as logind does at logout: cage and the session first, then
 * whatever the user still runs (the keyring daemon and Chromium leave the session's process group).
 */
export async function endSession(child: ChildProcess, user: BootUser): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  spawnSync('pkill', ['-KILL', '-u', String(user.uid)]);
}

/**
 * Removes the boot test's user once none of its processes is left (userdel refuses a user that
 * still runs one). Also before a run: a user left by a run that never got to its end would bring
 * that run's home, and its keyring sealed with another password, into this one.
 */
export async function removeBootUser(name: string): Promise<void> {
  if (spawnSync('getent', ['passwd', name]).status !== 0) return;
  spawnSync('pkill', ['-KILL', '-u', name]);
  await until(() => spawnSync('pgrep', ['-u', name]).status === 1, { failure: `${name}'s processes did not end` });
  const removed = spawnSync('userdel', [name], { encoding: 'utf8' });
  if (removed.status !== 0) throw new Error(`userdel ${name}: ${removed.stderr}`);
}

/** The pages a DevTools port lists, or null while nothing answers on it. */
export async function devToolsPages(port: number): Promise<Array<{ type: string; title: string; url: string }> | null> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/json/list`);
    return (await answer.json()) as Array<{ type: string; title: string; url: string }>;
  } catch {
    return null;
  }
}
