import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
// Not named WebSocket: code this file runs inside the page uses the page's own.
import NodeWebSocket from 'ws';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';
import { setupCode } from '../../main/manager/setup-code.node.ts';
import { builtCli } from '../support/built-cli.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';

/** Opens the bridge from Node as a page at `origin` would; resolves with the answer to getAppInfo, or how it was refused. */
function bridgeFrom(origin: string, url: string): Promise<{ answer: unknown } | { refused: number | string }> {
  return new Promise((resolve) => {
    const socket = new NodeWebSocket(url, { origin });
    socket.once('open', () => socket.send(JSON.stringify({ id: 1, call: 'getAppInfo', input: {} })));
    socket.once('message', (data) => {
      resolve({ answer: JSON.parse(String(data)) });
      socket.close();
    });
    // Listening here makes ending the refused request ours (ws leaves it open then).
    socket.once('unexpected-response', (request, response) => {
      resolve({ refused: response.statusCode ?? 'no status' });
      request.destroy();
    });
    socket.once('error', (error) => resolve({ refused: error.message }));
  });
}

/** Whether anything accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

describe('browser host smoke', () => {
  let host: BrowserHostProcess;
  let browser: Browser;

  beforeAll(async () => {
    host = await startBrowserHostProcess();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('prints the demo sandbox and its manifest', () => {
    expect(host.sandbox?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(fs.existsSync(host.sandbox!.manifestPath)).toBe(true);
  });

  it('renders the attract screen with window.kiosk and a working bridge', async () => {
    for (const [name, viewport] of Object.entries(KIOSK_VIEWPORTS)) {
      const page = await browser.newPage({ viewport });
      await page.goto(host.url);
      await page.getByTestId('attract-screen').waitFor();
      await expect(page.getByTestId('demo-badge').isVisible()).resolves.toBe(true);
      const info = await page.evaluate(() => window.kiosk.getAppInfo());
      expect(info).toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk', demo: true } });
      const unknown = await page.evaluate(() => (window.kiosk as unknown as Record<string, unknown>).ipcRenderer);
      expect(unknown).toBeUndefined();
      fs.mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: `test-results/attract-${name}.png` });
      await page.close();
    }
  });

  it('runs under its CSP without a violation of its own, and shows images only from the platform and data:', async () => {
    const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.landscape });
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      // Styles and images only: zod's one caught eval probe reports a script-src violation by design.
      document.addEventListener('securitypolicyviolation', (event) => {
        if (/^(style|img)-src/.test(event.effectiveDirective)) seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
    await page.goto(host.url);
    await page.getByTestId('attract-screen').waitFor();
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    // Brand colour, badge room: the app styles itself at run time without 'unsafe-inline'.
    await expect(page.evaluate(() => getComputedStyle(document.querySelector('.kiosk')!).getPropertyValue('--brand'))).resolves.not.toBe('');
    expect(await violations()).toEqual([]);
    const platform = new URL(host.sandbox!.baseUrl).origin;
    await page.evaluate((sources) => {
      for (const src of sources) document.body.append(Object.assign(document.createElement('img'), { src }));
    }, [`${platform}/missing.png`, 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'https://images.elsewhere.example/promo.png']);
    await expect.poll(violations).toEqual(['img-src https://images.elsewhere.example/promo.png']);
    await page.close();
  });

  it('refuses the page and the bridge without the right token', async () => {
    const noToken = await fetch(host.origin);
    expect(noToken.status).toBe(403);
    const wrong = await fetch(`${host.origin}/?token=wrong`);
    expect(wrong.status).toBe(403);
    const page = await browser.newPage();
    await page.goto(`${host.origin}/kiosk-bridge.js`);
    const opened = await page.evaluate(
      (origin) =>
        new Promise<boolean>((resolve) => {
          const socket = new WebSocket(`${origin.replace('http', 'ws')}/bridge?token=wrong`);
          socket.onopen = () => resolve(true);
          socket.onerror = () => resolve(false);
        }),
      host.origin,
    );
    expect(opened).toBe(false);
    await page.close();
  });

  it('prints a launch URL on 127.0.0.1 with its token, and listens on loopback 127.0.0.1 only', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    const port = Number(new URL(host.url).port);
    await expect(accepts('127.0.0.1', port)).resolves.toBe(true);
    // Linux routes all of 127/8 to loopback: a server on every address would answer 127.0.0.2 too.
    await expect(accepts('127.0.0.2', port)).resolves.toBe(false);
  });

  it('carries the bridge only for its own origin with the launch token', async () => {
    const token = new URL(host.url).searchParams.get('token')!;
    const bridge = `${host.origin.replace('http', 'ws')}${BROWSER_BRIDGE_PATH}`;
    await expect(bridgeFrom(host.origin, `${bridge}?token=${token}`)).resolves.toMatchObject({
      answer: { id: 1, result: { ok: true, value: { name: 'Loyalty Kiosk' } } },
    });
    await expect(bridgeFrom('http://evil.example', `${bridge}?token=${token}`)).resolves.toEqual({ refused: 403 });
    await expect(bridgeFrom(host.origin, bridge)).resolves.toEqual({ refused: 403 });
  });
});

describe('browser host opening Chromium', () => {
  it('opens KIOSK_BROWSER in kiosk mode on a one-time launch link, the token in no argv', async () => {
    const dir = tempDir('kiosk-browser-stub-');
    const argsFile = path.join(dir, 'argv.txt');
    const stub = path.join(dir, 'chromium');
    fs.writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 });
    const opened = await startBrowserHostProcess({ open: true, env: { KIOSK_BROWSER: stub, DISPLAY: ':99' } });
    try {
      await expect.poll(() => fs.existsSync(argsFile) && fs.readFileSync(argsFile, 'utf8')).toMatch(/\n$/);
      const argv = fs.readFileSync(argsFile, 'utf8').trimEnd().split('\n');
      expect(argv).toContain('--kiosk');
      // As root Chromium runs only without its sandbox: it gets --no-sandbox, and the host says so.
      const asRoot = process.getuid?.() === 0;
      expect(argv.includes('--no-sandbox')).toBe(asRoot);
      expect(opened.stdout.some((line) => line.startsWith('Running as root: Chromium starts with --no-sandbox'))).toBe(asRoot);
      const token = new URL(opened.url).searchParams.get('token')!;
      expect(argv.join(' ')).not.toContain(token);
      const launchLink = argv.find((arg) => arg.startsWith('--app='))!.slice('--app='.length);
      expect(launchLink).toMatch(new RegExp(`^${opened.origin}/launch/[A-Za-z0-9_-]{32}$`));
      // The link opens the page once (by a redirect to it with its token), then never again.
      const launched = await fetch(launchLink);
      expect(launched.status).toBe(200);
      expect(launched.url).toBe(opened.url);
      expect((await fetch(launchLink)).status).toBe(403);
    } finally {
      await opened.stop();
    }
  });

  it('says why a browser that exits at once did, with its last line of errors (#22 §4)', async () => {
    const stub = path.join(tempDir('kiosk-failing-browser-'), 'chromium');
    fs.writeFileSync(stub, `#!/bin/sh\necho 'starting' >&2\necho '[42:ERROR:ozone_platform_x11.cc] Missing X server or $DISPLAY' >&2\nexit 1\n`, { mode: 0o755 });
    const opened = await startBrowserHostProcess({ open: true, env: { KIOSK_BROWSER: stub, DISPLAY: ':99' } });
    try {
      await expect
        .poll(() => opened.stdout.join('\n'))
        .toMatch(/chromium exited at once \(exit code 1\): \[42:ERROR:ozone_platform_x11\.cc\] Missing X server or \$DISPLAY\. Open the Kiosk UI address above/);
      expect((await fetch(opened.url)).status).toBe(200);
    } finally {
      await opened.stop();
    }
  });

  it('with no display, says so and opens nothing (#22 §4)', async () => {
    const dir = tempDir('kiosk-no-display-');
    const stub = path.join(dir, 'chromium');
    fs.writeFileSync(stub, `#!/bin/sh\ntouch '${path.join(dir, 'started')}'\n`, { mode: 0o755 });
    const opened = await startBrowserHostProcess({ open: true, env: { KIOSK_BROWSER: stub, DISPLAY: '', WAYLAND_DISPLAY: '' } });
    try {
      await expect.poll(() => opened.stdout.join('\n')).toMatch(/^No display here \(DISPLAY and WAYLAND_DISPLAY are unset\): open the Kiosk UI address above/m);
      expect(opened.stdout.indexOf(`Kiosk UI: ${opened.url}`)).toBeLessThan(opened.stdout.findIndex((line) => line.startsWith('No display here')));
      expect(fs.existsSync(path.join(dir, 'started'))).toBe(false);
    } finally {
      await opened.stop();
    }
  });

  it('keeps serving when the browser cannot start, and says so', async () => {
    const opened = await startBrowserHostProcess({ open: true, env: { KIOSK_BROWSER: path.join(tempDir('kiosk-no-browser-'), 'chromium'), DISPLAY: ':99' } });
    try {
      await expect.poll(() => opened.stdout.join('\n')).toMatch(/^Could not open .*chromium/m);
      expect((await fetch(opened.url)).status).toBe(200);
    } finally {
      await opened.stop();
    }
  });
});

describe('browser host under its unit', () => {
  it('keeps the page token and the setup code out of the journal, and still says where it listens', async () => {
    const dataDir = tempDir('kiosk-journal-');
    const journalFile = path.join(tempDir('kiosk-journal-out-'), 'journal');
    const journal = fs.openSync(journalFile, 'w');
    const { dev, ino } = fs.fstatSync(journal);
    // As systemd starts the unit: stdout is the journal's stream, named in JOURNAL_STREAM.
    const child = spawn(process.execPath, [builtCli('browser-host'), '--no-open', '--port', '0', '--data', dataDir], {
      env: { ...process.env, JOURNAL_STREAM: `${dev}:${ino}` },
      stdio: ['ignore', journal, 'ignore'],
    });
    fs.closeSync(journal);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => fs.readFileSync(journalFile, 'utf8'), { timeout: 30_000 }).toMatch(/^Kiosk UI: /m);
      const written = fs.readFileSync(journalFile, 'utf8');
      expect(written).toMatch(/^Kiosk UI: http:\/\/127\.0\.0\.1:\d+\/ \(its token is not written to the journal\)$/m);
      expect(written).not.toContain('token=');
      expect(written).toContain('Console setup code (first run): kioskctl setup-code prints it');
      expect(written).not.toContain(setupCode(dataDir));
    } finally {
      child.kill();
      await exited;
    }
  });
});

describe('npm start without an Electron binary', () => {
  it('says so in one line, then runs the browser host; a failed download is not tried again at the next start', async () => {
    // An electron package folder whose binary was never downloaded (and cannot be: no install script).
    const electronDir = tempDir('kiosk-no-electron-');
    const start = () => startBrowserHostProcess({ entry: 'main/electron/launch.node.ts', env: { KIOSK_ELECTRON_DIR: electronDir } });
    const first = await start();
    try {
      const [downloading, fallback, ...rest] = first.stdout;
      expect(downloading).toMatch(/^Electron binary not downloaded yet: downloading it/);
      expect(fallback).toMatch(/^Electron binary not available here .*starting the browser host/);
      expect(rest[0]).toBe(`Kiosk UI: ${first.url}`);
      expect((await fetch(first.url)).status).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await start();
    try {
      const [remembered, fallback] = second.stdout;
      expect(remembered).toBe(`Electron's download failed before (${fs.readFileSync(path.join(electronDir, '.download-failed'), 'utf8').trim()}); not retried. To retry: rm ${path.join(electronDir, '.download-failed')}`);
      expect(fallback).toMatch(/^Electron binary not available here/);
      expect((await fetch(second.url)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
