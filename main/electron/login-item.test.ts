import { describe, expect, it } from 'vitest';
import { fakeElectron } from './fake-electron.test-support.ts';
import { setOpenAtLogin } from './login-item.main.ts';

describe('setOpenAtLogin', () => {
  it.each(['win32', 'darwin'] as const)('turns the login item on and off on %s', (platform) => {
    const { app } = fakeElectron();
    expect(setOpenAtLogin(app, platform, true)).toBe(true);
    expect(app.getLoginItemSettings().openAtLogin).toBe(true);
    expect(setOpenAtLogin(app, platform, false)).toBe(true);
    expect(app.getLoginItemSettings().openAtLogin).toBe(false);
  });

  it('leaves Linux to the systemd unit: nothing is set', () => {
    const { app } = fakeElectron();
    expect(setOpenAtLogin(app, 'linux', true)).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });
});
