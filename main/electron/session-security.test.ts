import { describe, expect, it } from 'vitest';
import { FakeSession, recordingLogger } from './fake-electron.test-support.ts';
import { installSessionSecurity } from './session-security.main.ts';

const APP_PAGE = 'app://kiosk/index.html';
const FOREIGN_PAGES = ['https://evil.example/', 'app://kiosk.evil.example/', 'app://kiosk@evil/', 'file:///index.html'];

function securedSession() {
  const session = new FakeSession();
  const logger = recordingLogger();
  installSessionSecurity(session.electron, logger);
  return { session, logger };
}

describe('session security: permission requests', () => {
  it('grants media (the scanning camera) to the app', async () => {
    await expect(securedSession().session.requestPermission('media', APP_PAGE)).resolves.toBe(true);
  });

  it('refuses the microphone, alone or with the camera: scanning needs only video', async () => {
    await expect(securedSession().session.requestPermission('media', APP_PAGE, ['audio'])).resolves.toBe(false);
    await expect(securedSession().session.requestPermission('media', APP_PAGE, ['video', 'audio'])).resolves.toBe(false);
  });

  it.each(FOREIGN_PAGES)('refuses media to %s', async (url) => {
    await expect(securedSession().session.requestPermission('media', url)).resolves.toBe(false);
  });

  it.each(['notifications', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen'] as const)(
    'refuses %s even to the app',
    async (permission) => {
      await expect(securedSession().session.requestPermission(permission, APP_PAGE)).resolves.toBe(false);
    },
  );

  it('logs what it refused', async () => {
    const { session, logger } = securedSession();
    await session.requestPermission('geolocation', APP_PAGE);
    expect(logger.lines).toEqual([{ level: 'warn', message: 'permission refused', fields: { permission: 'geolocation' } }]);
  });
});

describe('session security: permission checks', () => {
  it('says the app holds media', () => {
    expect(securedSession().session.checkPermission('media', 'app://kiosk')).toBe(true);
  });

  it.each(FOREIGN_PAGES)('says %s does not hold media', (origin) => {
    expect(securedSession().session.checkPermission('media', origin)).toBe(false);
  });

  it.each(['notifications', 'geolocation'] as const)('says the app does not hold %s', (permission) => {
    expect(securedSession().session.checkPermission(permission, 'app://kiosk')).toBe(false);
  });
});

describe('session security: downloads', () => {
  it('blocks every download and logs it', () => {
    const { session, logger } = securedSession();
    expect(session.emitCancellable('will-download', {}, {})).toBe(true);
    expect(logger.lines).toEqual([{ level: 'warn', message: 'download blocked', fields: undefined }]);
  });
});
