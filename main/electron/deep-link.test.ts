import { describe, expect, it } from 'vitest';
import { PortalSessionLinks, portalSessionFromArgv, portalSessionFromDeepLink } from './deep-link.std.ts';

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

  it('holds the newest link until the kiosk can open it, then opens each link at once', () => {
    const links = new PortalSessionLinks();
    const opened: string[] = [];
    const other = '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f';
    links.receive(other);
    links.receive(uuid);
    links.receive(null);
    expect(opened).toEqual([]);
    links.openWith((held) => opened.push(held));
    expect(opened).toEqual([uuid]);
    links.receive(other);
    expect(opened).toEqual([uuid, other]);
  });
});
