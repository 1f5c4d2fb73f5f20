import { describe, expect, it } from 'vitest';
import { portalSessionFromArgv, portalSessionFromDeepLink } from './deep-link.std.ts';

const uuid = '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b';

describe('portal-session deep links', () => {
  it('reads the uuid of a well-formed link', () => {
    expect(portalSessionFromDeepLink(`loyalty-kiosk://portal-session/${uuid}`)).toBe(uuid);
    expect(portalSessionFromDeepLink(`loyalty-kiosk://portal-session/${uuid.toUpperCase()}`)).toBe(uuid);
  });
  it('ignores other schemes, other targets and anything that is not a uuid', () => {
    for (const link of [
      `https://portal-session/${uuid}`,
      `loyalty-kiosk://settings/${uuid}`,
      `loyalty-kiosk://portal-session/${uuid}/../../etc`,
      'loyalty-kiosk://portal-session/not-a-uuid',
      'not a url',
    ]) {
      expect(portalSessionFromDeepLink(link), link).toBeNull();
    }
  });
  it('finds the link among a second instance’s arguments', () => {
    expect(portalSessionFromArgv(['/opt/kiosk/kiosk', '--no-sandbox', `loyalty-kiosk://portal-session/${uuid}`])).toBe(uuid);
    expect(portalSessionFromArgv(['/opt/kiosk/kiosk'])).toBeNull();
  });
});
