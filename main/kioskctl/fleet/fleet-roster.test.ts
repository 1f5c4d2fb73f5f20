import { describe, expect, it } from 'vitest';
import { sampleHealth } from '../../../test/support/fleet-health-sample.std.ts';
import type { FleetHealth } from '../../fleet/fleet-messages.std.ts';
import { isKioskId, type KioskRecord, MAX_HEALTH_BYTES, readHealth, type RosterRow, rosterCsv, rosterJson, rosterNotes, rosterRow, rosterTable, rowChanges } from './fleet-roster.std.ts';

const payload = (health: FleetHealth) => new TextEncoder().encode(JSON.stringify(health));

const row = (changes: Partial<RosterRow> = {}): RosterRow => ({
  kioskId: 'store-1',
  status: 'online',
  since: 0,
  version: '1.4.0',
  channel: 'stable',
  update: 'idle',
  mode: 'connected',
  platform: 'available',
  latencyMs: 40,
  errors: 0,
  outOfServiceMinutes: 0,
  locksHeld: 0,
  scanner: 'keyboard',
  screen: 'attract',
  groups: [],
  shop: null,
  setupNeeded: null,
  freeDiskBytes: 1_000_000_000,
  uptimeSeconds: 3_600,
  settings: 'none',
  drift: {},
  lastSeen: 0,
  stale: false,
  ...changes,
});

describe('the fleet roster (#23 §3)', () => {
  it('writes CSV a spreadsheet opens as data: quoted where needed, no cell taken for a formula', () => {
    const csv = rosterCsv([row({ kioskId: '=HYPERLINK("x")', scanner: 'serial, "COM3"' })]).split('\r\n');
    expect(csv[1]).toMatch(/^"'=HYPERLINK\(""x""\)",online,/);
    expect(csv[1]).toContain(',"serial, ""COM3""",');
  });

  it('guards every text cell a spreadsheet could run, leading whitespace or not, and writes no control character (#28 §6)', () => {
    const hostile = row({ kioskId: ' =1+1', version: "-1+1+cmd|' /C calc'!A0", update: '@SUM(A1)', mode: '+1', scanner: '-5', screen: '\u001b]0;title\u0007\u009b2J', groups: ['\t=1', 'north'], latencyMs: -3 });
    const cells = rosterCsv([hostile]).split('\r\n')[1]!;
    expect(cells).toBe(`"' =1+1",online,1970-01-01T00:00:00Z,"'-1+1+cmd|' /C calc'!A0",stable,"'@SUM(A1)","'+1",available,-3,0,0,0,"'-5",\\x1b]0;title\\x07\\x9b2J,\\x09=1 north,none,,1000000000,3600,1970-01-01T00:00:00Z,false`);
  });

  it('writes JSON whose texts are printable as in the table: no C1 control or bidi override left raw (#28 §6)', () => {
    const json = rosterJson([row({ version: '1.4.0\u009b2J\u202egnp.exe\u007f' })]);
    expect(json).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect((JSON.parse(json) as RosterRow[])[0]!.version).toBe('1.4.0\\x9b2J\\u202egnp.exe\\x7f');
  });

  it('takes a topic level for a kiosk only when it is a valid kiosk id, and never kioskctl\'s marker level (#28 §8)', () => {
    expect(['store-1', 'ams.01', 'Kiosk_7'].filter(isKioskId)).toHaveLength(3);
    expect(['all', 'group', '.kioskctl', '+', '#', 'a/b', '', 'x'.repeat(65)].filter(isKioskId)).toEqual([]);
  });

  it('skips a health over 64 KiB unread, keeps no text of a kiosk\'s longer than a topic level, and no more groups than a kiosk may have (#28 §7)', () => {
    const big = sampleHealth('store-1', { version: 'x'.repeat(MAX_HEALTH_BYTES) });
    expect(readHealth(payload(big))).toBeNull();
    const long = readHealth(payload(sampleHealth('store-1', { version: `1.4.0-${'x'.repeat(10_000)}`, groups: Array.from({ length: 500 }, (_, index) => `${'g'.repeat(100)}${index}`) })))!;
    expect(long.version).toHaveLength(64);
    expect(long.version).toMatch(/^1\.4\.0-x+…$/);
    expect(long.groups).toHaveLength(16);
    expect(long.groups.every((group) => group.length === 64)).toBe(true);
    expect(readHealth(payload(sampleHealth('store-1')))).toMatchObject({ version: '1.4.0', groups: [], screen: 'attract' });
  });

  it('shows a health whose times no date can hold as without them, and never throws (#28 §7)', () => {
    const record: KioskRecord = { status: 'online', health: readHealth(payload(sampleHealth('store-1', { at: 9e15, uptimeSeconds: 0 }))) };
    const hostile = rosterRow('store-1', record, Date.now());
    expect(rosterCsv([hostile]).split('\r\n')[1]).toMatch(/^store-1,online,,1\.4\.0,/);
    expect(() => rosterTable([hostile], Date.now())).not.toThrow();
  });

  it('notes the kiosks with no health to show, and a broker that held more kiosks than kept (#28 §7)', () => {
    const records = new Map<string, KioskRecord>([
      ['store-1', { status: 'online', health: readHealth(payload(sampleHealth('store-1'))) }],
      ['store-huge', { status: 'online', health: null }],
    ]);
    expect(rosterNotes({ records, full: false })).toEqual(["no health to show for store-huge: none yet, not a kiosk's health, or over 64 KiB (skipped unread)"]);
    const many = new Map(Array.from({ length: 12 }, (_, index): [string, KioskRecord] => [`k${String(index).padStart(2, '0')}`, { status: 'offline', health: null }]));
    expect(rosterNotes({ records: many, full: true })).toEqual([
      "no health to show for k00, k01, k02, k03, k04, k05, k06, k07, k08, k09 and 2 more: none yet, not a kiosk's health, or over 64 KiB (skipped unread)",
      'the broker holds more kiosks than kioskctl keeps (12): the others are not listed',
    ]);
  });

  it('names each change that matters to an operator, and nothing when nothing changed', () => {
    expect(rowChanges(undefined, row())).toEqual(['seen']);
    expect(rowChanges(row(), row())).toEqual([]);
    expect(rowChanges(row(), row({ status: 'offline' }))).toEqual(['went OFFLINE']);
    expect(rowChanges(row(), row({ platform: 'unavailable' }))).toEqual(['OUT OF SERVICE (platform unavailable)']);
    expect(rowChanges(row({ platform: 'unavailable' }), row())).toEqual(['back in service']);
    expect(rowChanges(row(), row({ stale: true, screen: 'asleep' }))).toEqual(['health STALE', 'asleep (quiet hours)']);
    expect(rowChanges(row(), row({ version: '1.5.0' }))).toEqual(['version 1.5.0']);
  });
});
