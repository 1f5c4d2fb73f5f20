import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSandboxDataDir } from './data-dir.node.ts';

describe('the default data folder', () => {
  it('follows each platform convention, under loyalty-kiosk/sandbox', () => {
    const home = '/home/kiosk';
    expect(defaultSandboxDataDir({ XDG_DATA_HOME: '/data' }, 'linux', home)).toBe(path.join('/data', 'loyalty-kiosk', 'sandbox'));
    expect(defaultSandboxDataDir({}, 'linux', home)).toBe(path.join(home, '.local', 'share', 'loyalty-kiosk', 'sandbox'));
    expect(defaultSandboxDataDir({}, 'darwin', home)).toBe(
      path.join(home, 'Library', 'Application Support', 'loyalty-kiosk', 'sandbox'),
    );
    expect(defaultSandboxDataDir({ APPDATA: 'C:\\Users\\kiosk\\AppData\\Roaming' }, 'win32', home)).toBe(
      path.join('C:\\Users\\kiosk\\AppData\\Roaming', 'loyalty-kiosk', 'sandbox'),
    );
  });
});
