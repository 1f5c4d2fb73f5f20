import { describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import { kioskIdentity } from './fleet-service.node.ts';

describe('who the kiosk is on the fleet\'s topics (#28 §8)', () => {
  const unset = KioskConfig.parse({});

  it('is fleet.kioskId, else the hostname', () => {
    expect(kioskIdentity(KioskConfig.parse({ fleet: { kioskId: 'store-1' } }), 'all')).toEqual({ kioskId: 'store-1' });
    expect(kioskIdentity(unset, 'kiosk-ams-01')).toEqual({ kioskId: 'kiosk-ams-01' });
  });

  it('never takes a hostname that names the fleet-wide or group topics, or a wildcard or another level, and says why', () => {
    for (const hostname of ['all', 'group', '.kioskctl', 'north+', 'a#', 'a/b', '']) {
      const identity = kioskIdentity(unset, hostname);
      expect({ hostname, identity }).toEqual({ hostname, identity: { problem: expect.stringContaining(`the hostname ${JSON.stringify(hostname)} cannot be the kiosk id`) } });
    }
    expect(kioskIdentity(unset, 'all')).toEqual({ problem: expect.stringMatching(/all and group are kept .*: set fleet\.kioskId$/) });
  });

  it('refuses kioskctl\'s marker level as a fleet.kioskId too: such a kiosk would be invisible to kioskctl fleet', () => {
    expect(KioskConfig.safeParse({ fleet: { kioskId: '.kioskctl' } }).success).toBe(false);
    expect(KioskConfig.safeParse({ fleet: { kioskId: 'kioskctl' } }).success).toBe(true);
  });
});
