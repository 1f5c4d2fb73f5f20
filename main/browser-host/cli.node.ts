import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseCliArgs } from '../process/cli-args.node.ts';
import { SERVICES_CLOSE_MS, startKioskServices } from '../kiosk-services.node.ts';
import { settlesWithin } from '../../base/deadline.std.ts';
import { startupFailure } from '../process/startup-error.std.ts';
import { appVersion, buildOutput, missingBuild } from '../paths/build-output.node.ts';
import { defaultDataDir } from '../paths/data-dir.node.ts';
import { type BrowserHost, startBrowserHost } from './browser-host.node.ts';
import { jsonOrUndefined } from '../../common/json.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';

const HANDOVER_ENV = 'KIOSK_BROWSER_HOST_HANDOVER';
const Handover = z.strictObject({ port: z.number().int().min(1).max(65_535), token: z.string().regex(/^[\w-]{32,64}$/) });

const USAGE = 'usage: npm run start:browser -- [--no-open] [--port N] [--data DIR]';
const { values } = parseCliArgs(
  process.argv.slice(2),
  { 'no-open': { type: 'boolean' }, port: { type: 'string' }, data: { type: 'string' } },
  USAGE,
);

// A restarting host's port and token: its open page works on with this process.
const handover = takeHandover();
const port = handover?.port ?? Number(values.port ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`--port must be a port number (0 picks a free one)\n${USAGE}\n`);
  process.exit(2);
}
// How often an unreachable loyalty platform is tried again (default 5 s); tests shorten it.
const retryText = process.env.KIOSK_SERVICE_RETRY_MS;
const serviceRetryMs = retryText ? Number(retryText) : undefined;
if (serviceRetryMs !== undefined && (!Number.isInteger(serviceRetryMs) || serviceRetryMs < 100)) {
  process.stderr.write('KIOSK_SERVICE_RETRY_MS must be a whole number of milliseconds, at least 100\n');
  process.exit(2);
}
const notBuilt = missingBuild();
if (notBuilt) {
  process.stderr.write(`${notBuilt}\n`);
  process.exit(1);
}

// Served once the services run; the fleet's reload reaches the pages through it.
let pages: BrowserHost | null = null;
const services = await startKioskServices({
  dataDir: path.resolve(values.data ?? defaultDataDir()),
  version: appVersion(),
  echoLogs: process.env.KIOSK_ECHO_LOGS === '1',
  keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
  serviceRetryMs,
  // No `display` hook: the browser host has no power-save blocker; in quiet hours the screen goes
  // black and Chromium and the OS decide when the display sleeps.
  host: {
    // Whoever asks, the services are closed first, and only then does the process go.
    restart: () => void stop().then(restart),
    quit: () => void stop().then(() => process.exit(0)),
    reload: () => {
      if (!pages) throw new Error('the kiosk page is not served yet');
      pages.reloadPages();
    },
  },
}).catch((error: unknown) => {
  const failure = startupFailure(error);
  if (!failure) throw error;
  // One line for the admin, never a stack (nor a state file's content).
  process.stderr.write(failure.line);
  process.exit(failure.exitCode);
});
const host = await startBrowserHost({
  services,
  rendererDir: buildOutput.rendererDir,
  bridgeScript: buildOutput.browserBridgeScript,
  port,
  token: handover?.token,
});
pages = host;
// One write (a pipe delivers it whole): whoever reads the URL line has the sandbox line with it.
const sandboxLine = services.sandbox ? `Sandbox: ${services.sandbox.baseUrl} manifest ${services.sandbox.manifestPath}\n` : '';
process.stdout.write(`Kiosk UI: ${host.url}\n${sandboxLine}`);
// Chromium gets a one-time launch link, never the token: its argv is visible to every user (ps).
// After a restart the page the last process opened is still there: no second window.
if (!values['no-open'] && !handover) openKioskBrowser(host.launchUrl(), services.dataDir);

/** The services' own bound, and the page server's close: past it the process goes anyway (its exit frees the data folder). */
const STOP_DEADLINE_MS = SERVICES_CLOSE_MS + 5_000;

let stopped: Promise<void> | null = null;
/**
 * Closes the page server and the services, once: a second caller waits for the same close. It
 * always resolves, within STOP_DEADLINE_MS, whatever a part does.
 */
function stop(): Promise<void> {
  stopped ??= settlesWithin(closeAll(), STOP_DEADLINE_MS).then((inTime) => {
    if (!inTime) process.stderr.write(`the kiosk did not close within ${STOP_DEADLINE_MS / 1000} s: it stops anyway\n`);
  });
  return stopped;
}

async function closeAll() {
  await host.close().catch((error: unknown) => process.stderr.write(`the page server did not close: ${String(error)}\n`));
  await services.close();
}

let restarting = false;
/**
 * Under systemd (INVOCATION_ID) the unit's Restart=always starts the next process, and ends what
 * this one started (its Chromium) on the way: this one just exits. Otherwise it starts its own
 * successor on the same port and token, so the open page finds it and loads afresh from it.
 */
function restart() {
  if (restarting) return;
  restarting = true;
  if (!process.env.INVOCATION_ID) {
    const { port: ownPort, searchParams } = new URL(host.url);
    const env = { ...process.env, [HANDOVER_ENV]: JSON.stringify({ port: Number(ownPort), token: searchParams.get('token') }) };
    spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', detached: true, env }).unref();
  }
  process.exit(0);
}
process.on('SIGINT', () => void stop().then(() => process.exit(0)));
process.on('SIGTERM', () => void stop().then(() => process.exit(0)));

/**
 * The port and token a restarting predecessor handed over, in the environment (which, unlike argv,
 * only this user can read), removed at once so no child of this process inherits the token.
 */
function takeHandover(): { port: number; token: string } | null {
  const text = process.env[HANDOVER_ENV];
  delete process.env[HANDOVER_ENV];
  if (!text) return null;
  const handed = Handover.safeParse(jsonOrUndefined(text));
  if (!handed.success) process.stderr.write(`${HANDOVER_ENV} is not a handover; starting afresh\n`);
  return handed.success ? handed.data : null;
}

/** A Chromium that exits sooner than this after its start could not start: its last words are reported. */
const EARLY_EXIT_MS = 5_000;

/**
 * The system Chromium, full-screen on the kiosk page, with its own profile in the data folder. What
 * keeps it from showing is said in one line each: no display, no Chromium, one that exits at once.
 */
function openKioskBrowser(launchUrl: string, dataDir: string) {
  const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  const browser = process.env.KIOSK_BROWSER ?? candidates.find((file) => fs.existsSync(file));
  const openItYourself = 'open the Kiosk UI address above in a Chromium-based browser.';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    process.stdout.write(`No display here (DISPLAY and WAYLAND_DISPLAY are unset): ${openItYourself}\n`);
    return;
  }
  if (!browser) {
    process.stdout.write(`No Chromium found: ${openItYourself}\n`);
    return;
  }
  // Chromium refuses to run as root with its sandbox on.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) process.stdout.write('Running as root: Chromium starts with --no-sandbox (run the kiosk as its own user to keep the sandbox).\n');
  const child = spawn(
    browser,
    [
      '--kiosk',
      `--app=${launchUrl}`,
      `--user-data-dir=${dataFiles(dataDir).chromiumProfile}`,
      '--no-first-run',
      '--disable-sync',
      '--disable-background-networking',
      '--disable-component-update',
      '--autoplay-policy=no-user-gesture-required',
      ...(asRoot ? ['--no-sandbox'] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  // A browser that cannot start must not take the kiosk's services down with it.
  child.once('error', (error) => process.stdout.write(`Could not open ${browser} (${error.message}): ${openItYourself}\n`));
  reportEarlyExit(child, browser, openItYourself);
  child.unref();
}

/**
 * Says why a browser that fails within EARLY_EXIT_MS did: its exit code and the last line it wrote
 * to stderr. (One that exits 0 handed the page to a Chromium already running on its profile.)
 */
function reportEarlyExit(child: ChildProcess, browser: string, openItYourself: string) {
  let lastLine = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = String(chunk).split('\n').map((line) => line.trim()).filter(Boolean);
    lastLine = lines.at(-1) ?? lastLine;
  });
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  const startedAt = Date.now();
  child.once('exit', (code, signal) => {
    if (Date.now() - startedAt > EARLY_EXIT_MS || code === 0) return;
    const why = lastLine ? `: ${lastLine}` : '';
    process.stdout.write(`${browser} exited at once (${signal ?? `exit code ${code}`})${why}. ${openItYourself[0]!.toUpperCase()}${openItYourself.slice(1)}\n`);
  });
}
