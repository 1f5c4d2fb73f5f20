import { describe, expect, it } from 'vitest';
import { type RosterRow, rosterCsv, rowChanges } from './fleet-roster.std.ts';

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
