import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium.node.ts';
import { freePort } from '../../test/support/free-port.node.ts';
import { until } from '../../test/support/until.std.ts';
import { openKioskBrowser } from './kiosk-browser.node.ts';

/**
 * #34 IT finding 4: on an X server with no window manager, Chromium's --kiosk window was 955x1060 on
 * a 1920x1080 screen. A real Xvfb with no window manager, and the host's own Chromium start.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-x11-'));
let xvfb: ChildProcess;
let display: string;

beforeAll(async () => {
  const free = Array.from({ length: 100 }, (_, n) => 150 + n).find((n) => !fs.existsSync(`/tmp/.X11-unix/X${n}`) && !fs.existsSync(`/tmp/.X${n}-lock`))!;
  display = `:${free}`;
  xvfb = spawn('Xvfb', [display, '-screen', '0', '1366x768x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  await until(() => fs.existsSync(`/tmp/.X11-unix/X${free}`), { failure: 'Xvfb did not start' });
});
afterAll(() => {
  xvfb?.kill();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function groupAlive(leader: number) {
  try {
    process.kill(-leader, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the browser host\'s Chromium on X11 without a window manager', () => {
  it('covers the whole screen from its top-left corner', async () => {
    const port = await freePort();
    const wrapper = path.join(scratch, 'chromium');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${CHROMIUM_PATH}' "$@" --disable-gpu --remote-debugging-port=${port}\n`, { mode: 0o755 });
    vi.stubEnv('DISPLAY', display);
    vi.stubEnv('WAYLAND_DISPLAY', undefined);
    vi.stubEnv('KIOSK_BROWSER', wrapper);
    const said: string[] = [];
    const child = openKioskBrowser('data:text/html,<title>kiosk</title>', scratch, (line) => said.push(line));
    vi.unstubAllEnvs();
    expect(child).not.toBeNull();
    // It never opens the kiosk's keyring (an unlock prompt on a kiosk screen holds the kiosk's own secret reads).
    expect(fs.readFileSync(`/proc/${child!.pid}/cmdline`, 'utf8').split('\0')).toContain('--password-store=basic');
    try {
      await expect.poll(() => fetch(`http://127.0.0.1:${port}/json/version`).then((answer) => answer.ok, () => false), { timeout: 20_000 }).toBe(true);
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const page = browser.contexts()[0]!.pages()[0]!;
      const [left, top, width, height, screenWidth, screenHeight] = await page.evaluate(() => [screenX, screenY, outerWidth, outerHeight, screen.width, screen.height]);
      expect({ left, top, screenWidth, screenHeight }).toEqual({ left: 0, top: 0, screenWidth: 1366, screenHeight: 768 });
      expect(width).toBeGreaterThanOrEqual(1366);
      expect(height).toBeGreaterThanOrEqual(768);
      await browser.close();
    } finally {
      // Chromium writes its profile as it quits: the scratch folder goes only once the group is gone.
      process.kill(-child!.pid!, 'SIGTERM');
      await until(() => !groupAlive(child!.pid!), { timeoutMs: 20_000, failure: 'Chromium did not quit' });
    }
    expect(said.filter((line) => /screen size/.test(line))).toEqual([]);
  });
});
