import { spawn, type ChildProcess } from 'node:child_process';
import { firstRunNotice } from '../manager/setup-code.node.ts';
import path from 'node:path';
import { z } from 'zod';
import { parseCliArgs } from '../process/cli-args.node.ts';
import { SERVICES_CLOSE_MS, startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { settlesWithin } from '../../base/deadline.std.ts';
import { startupFailure } from '../process/startup-error.std.ts';
import { writesToJournal } from '../process/journal-stream.node.ts';
import { appVersion, buildOutput, missingBuild } from '../paths/build-output.node.ts';
import { defaultDataDir } from '../paths/data-dir.node.ts';
import { startBrowserHost } from './browser-host.node.ts';
import { jsonOrUndefined } from '../../common/json.std.ts';
import { openKioskBrowser } from './kiosk-browser.node.ts';

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

// What is said of the browser refers to the URL line: said after it, though the browser opens before.
const notesBeforeUrl: string[] = [];
let urlLineWritten = false;
const sayAfterUrl = (line: string) => void (urlLineWritten ? process.stdout.write(line) : notesBeforeUrl.push(line));

// Listening before the services start, so Chromium starts beside them: the page waits for them there.
const dataDir = path.resolve(values.data ?? defaultDataDir());
let servicesStarted!: (services: Promise<KioskServices>) => void;
const host = await startBrowserHost({
  services: new Promise<KioskServices>((resolve) => (servicesStarted = resolve)),
  rendererDir: buildOutput.rendererDir,
  bridgeScript: buildOutput.browserBridgeScript,
  port,
  token: handover?.token,
});
// Chromium gets a one-time launch link, never the token: its argv is visible to every user (ps).
// After a restart the page the last process opened is still there: no second window. Opened only
// once this process holds the data folder: never a window on another kiosk's Chromium profile.
let browser: ChildProcess | null = null;
const openBrowser = () => {
  if (!values['no-open'] && !handover) browser = openKioskBrowser(host.launchUrl(), dataDir, sayAfterUrl);
};
const starting = startKioskServices({
  dataDir,
  version: appVersion(),
  echoLogs: process.env.KIOSK_ECHO_LOGS === '1',
  keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
  serviceRetryMs,
  onDataDirClaimed: openBrowser,
  // No `display` hook: the browser host has no power-save blocker; in quiet hours the screen goes
  // black and Chromium and the OS decide when the display sleeps.
  host: {
    // Whoever asks, the services are closed first, and only then does the process go.
    restart: () => void stop().then(restart),
    quit: () => void stop().then(() => process.exit(0)),
    reload: () => host.reloadPages(),
  },
});
servicesStarted(starting);
const services = await starting.catch((error: unknown) => {
  // The window opened for this start would wait for a page that never comes.
  browser?.kill();
  const failure = startupFailure(error);
  if (!failure) throw error;
  // One line for the admin, never a stack (nor a state file's content).
  process.stderr.write(failure.line);
  process.exit(failure.exitCode);
});
// One write (a pipe delivers it whole): whoever reads the URL line has the sandbox line and the
// browser's notes so far with it.
const sandboxLine = services.sandbox ? `Sandbox: ${services.sandbox.baseUrl} manifest ${services.sandbox.manifestPath}\n` : '';
// Under the unit stdout is the journal: the page's token (and the setup code) stay out of it.
const toJournal = writesToJournal(1);
const shownUrl = toJournal ? `${host.origin}/ (its token is not written to the journal)` : host.url;
process.stdout.write(`Kiosk UI: ${shownUrl}\n${sandboxLine}${firstRunNotice(dataDir, services.config, toJournal)}${notesBeforeUrl.splice(0).join('')}`);
urlLineWritten = true;

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
