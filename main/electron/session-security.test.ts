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
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'permission.refused', permission: 'geolocation' } })]);
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

describe('session security: the camera for a framed portal page', () => {
  const PORTAL = 'https://portal.example';
  const framedSession = (cameraMode: boolean) => {
    const session = new FakeSession();
    installSessionSecurity(session.electron, recordingLogger(), { frameOrigins: () => ['https://loyalty.example', PORTAL], cameraMode: () => cameraMode });
    return session;
  };

  it('grants the camera to an allowed portal origin, as a frame, while the kiosk scans with the camera', async () => {
    const session = framedSession(true);
    await expect(session.requestPermission('media', `${PORTAL}/portal-sessions?uuid=1`, ['video'], false)).resolves.toBe(true);
    expect(session.checkPermission('media', PORTAL, false)).toBe(true);
  });

  it('refuses it as a top-level page, from another origin, with the microphone, or when the kiosk uses a hand scanner', async () => {
    await expect(framedSession(true).requestPermission('media', `${PORTAL}/x`, ['video'], true)).resolves.toBe(false);
    await expect(framedSession(true).requestPermission('media', 'https://evil.example/x', ['video'], false)).resolves.toBe(false);
    await expect(framedSession(true).requestPermission('media', `${PORTAL}/x`, ['video', 'audio'], false)).resolves.toBe(false);
    await expect(framedSession(false).requestPermission('media', `${PORTAL}/x`, ['video'], false)).resolves.toBe(false);
    expect(framedSession(false).checkPermission('media', PORTAL, false)).toBe(false);
  });
});

describe('session security: downloads', () => {
  it('blocks every download and logs it', () => {
    const { session, logger } = securedSession();
    expect(session.emitCancellable('will-download', {}, {})).toBe(true);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'download.blocked' } })]);
  });
});
