import { updatesNotChecked } from '../../common/update-state.std.ts';
import type { FleetHealth } from '../../main/fleet/fleet-messages.std.ts';

/**
 * A kiosk's health as it publishes it, made now: in service, on its attract screen, nothing
 * wrong, updates off. A test or bench changes what it looks at.
 */
export function sampleHealth(kioskId: string, changes: Partial<FleetHealth> = {}): FleetHealth {
  const now = Date.now();
  return {
    at: now,
    kioskId,
    shop: null,
    groups: [],
    settings: '0123456789ab',
    asleep: false,
    countersSince: now - 86_400_000,
    version: '1.4.0',
    mode: 'connected',
    platform: { available: true, checkedAt: now },
    platformProbe: { latencyMs: 42, at: now },
    platformErrors: {},
    outOfServiceMinutes: 0,
    screen: 'attract',
    locksHeld: 0,
    scanner: { connection: 'keyboard', state: 'not_used', lastScanAt: null },
    logLinesDropped: 0,
    freeDiskBytes: 1_000_000_000,
    uptimeSeconds: 3_600,
    channel: 'stable',
    update: updatesNotChecked('1.4.0', 'stable', { note: 'update.feedUrl is not set' }),
    ...changes,
  };
}
