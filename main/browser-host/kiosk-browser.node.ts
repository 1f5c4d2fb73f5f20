import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { dataFiles } from '../paths/data-files.node.ts';

/** A Chromium that exits sooner than this after its start could not start: its last words are reported. */
const EARLY_EXIT_MS = 5_000;

/**
 * The system Chromium, full-screen on the kiosk page, with its own profile in the data folder. What
 * keeps it from showing is said in one line each: no display, no Chromium, one that exits at once.
 */
export function openKioskBrowser(launchUrl: string, dataDir: string, say: (line: string) => void): ChildProcess | null {
  const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  const browser = process.env.KIOSK_BROWSER ?? candidates.find((file) => fs.existsSync(file));
  const openItYourself = 'open the Kiosk UI address above in a Chromium-based browser.';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    say(`No display here (DISPLAY and WAYLAND_DISPLAY are unset): ${openItYourself}\n`);
    return null;
  }
  if (!browser) {
    say(`No Chromium found: ${openItYourself}\n`);
    return null;
  }
  // Chromium refuses to run as root with its sandbox on.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) say('Running as root: Chromium starts with --no-sandbox (run the kiosk as its own user to keep the sandbox).\n');
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
      // The kiosk's browser keeps no passwords: it leaves the OS keyring, the kiosk's secrets, alone.
      // Left to itself it opens the keyring at start, which can put an unlock prompt on the kiosk's
      // screen and hold the kiosk's own keychain reads behind it.
      '--password-store=basic',
      // Wayland itself where the session is Wayland (cage at boot), else X11.
      '--ozone-platform-hint=auto',
      ...wholeX11Screen(say),
      ...(asRoot ? ['--no-sandbox'] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  // A browser that cannot start must not take the kiosk's services down with it.
  child.once('error', (error) => say(`Could not open ${browser} (${error.message}): ${openItYourself}\n`));
  reportEarlyExit(child, browser, openItYourself, say);
  child.unref();
  return child;
}

/**
 * On an X server without a window manager, nobody makes --kiosk full screen: Chromium opens at a
 * default size (945x1060 on a 1920x1080 screen). So the window is placed over the whole screen,
 * whose size xdpyinfo tells, one pixel larger each way: Chromium gives a window of exactly the
 * screen's size one pixel less. Under a window manager or Wayland (cage) this changes nothing.
 */
function wholeX11Screen(say: (line: string) => void): string[] {
  if (process.platform !== 'linux' || !process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return [];
  const info = spawnSync('xdpyinfo', { encoding: 'utf8', timeout: 3_000 });
  const size = /dimensions:\s+(\d+)x(\d+) pixels/.exec(info.stdout ?? '');
  if (!size) {
    say('The screen size is unknown (xdpyinfo, from x11-utils, did not tell it): without a window manager the kiosk window may not fill the screen.\n');
    return [];
  }
  return ['--window-position=0,0', `--window-size=${Number(size[1]) + 1},${Number(size[2]) + 1}`];
}

/**
 * Says why a browser that fails within EARLY_EXIT_MS did: its exit code and the last line it wrote
 * to stderr. (One that exits 0 handed the page to a Chromium already running on its profile.)
 */
function reportEarlyExit(child: ChildProcess, browser: string, openItYourself: string, say: (line: string) => void) {
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
    say(`${browser} exited at once (${signal ?? `exit code ${code}`})${why}. ${openItYourself[0]!.toUpperCase()}${openItYourself.slice(1)}\n`);
  });
}
