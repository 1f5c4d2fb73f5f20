import { describe, expect, it } from 'vitest';
import { isKioskId, type RosterRow, rosterCsv, rosterJson, rowChanges } from './fleet-roster.std.ts';

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
    expect(cells).toBe(`"' =1+1",online,1970-01-01T00:00:00Z,"'-1+1+cmd|' /C calc'!A0",stable,"'@SUM(A1)","'+1",available,-3,0,0,0,"'-5",\\x1b]0;title\\x07\\x9b2J,\\x09=1 north,1970-01-01T00:00:00Z,false`);
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
