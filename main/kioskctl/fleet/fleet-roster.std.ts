import { kioskIdLevel } from '../../../common/config-schema.std.ts';
import { FleetHealth } from '../../fleet/fleet-messages.std.ts';
import { printable } from '../table.std.ts';

/** The level kioskctl's own marker goes under (`<prefix>/.kioskctl/…`): never a kiosk's, whoever publishes there. */
export const KIOSKCTL_LEVEL = '.kioskctl';

/** A topic's kiosk level names a kiosk: a valid kiosk id (the settings' own rule), never kioskctl's marker level. */
export function isKioskId(level: string): boolean {
  return level !== KIOSKCTL_LEVEL && kioskIdLevel.safeParse(level).success;
}

/** Health is published every minute: three missed in a row and it is stale. */
export const STALE_AFTER_MS = 180_000;

/** What the broker holds for one kiosk: its retained status and health, either possibly missing. */
export interface KioskRecord {
  status: 'online' | 'offline' | null;
  health: FleetHealth | null;
}

/** One kiosk as `kioskctl fleet ls` shows it. Times are epoch ms. */
export interface RosterRow {
  kioskId: string;
  status: 'online' | 'offline' | 'unknown';
  /** Online: since the kiosk started; offline: since it was last heard from. */
  since: number | null;
  version: string | null;
  channel: string | null;
  update: string | null;
  mode: string | null;
  platform: 'available' | 'unavailable' | null;
  latencyMs: number | null;
  errors: number | null;
  outOfServiceMinutes: number | null;
  locksHeld: number | null;
  scanner: string | null;
  /** What the screen shows, or `asleep` in quiet hours. */
  screen: string | null;
  groups: string[];
  lastSeen: number | null;
  /** The health is older than STALE_AFTER_MS: the figures may no longer hold. */
  stale: boolean;
}

/** A retained health payload, or null when it is none (an old kiosk's, or garbage on the topic). */
export function readHealth(payload: string): FleetHealth | null {
  try {
    return FleetHealth.safeParse(JSON.parse(payload)).data ?? null;
  } catch {
    return null;
  }
}

export function rosterRow(kioskId: string, { status, health }: KioskRecord, now: number): RosterRow {
  const since = !health ? null : status === 'offline' ? health.at : health.at - health.uptimeSeconds * 1000;
  const update = health ? `${health.update.state}${health.update.availableVersion ? ` ${health.update.availableVersion}` : ''}` : null;
  return {
    kioskId,
    status: status ?? 'unknown',
    since,
    version: health?.version ?? null,
    channel: health?.channel ?? null,
    update,
    mode: health?.mode ?? null,
    platform: health ? (health.platform.available ? 'available' : 'unavailable') : null,
    latencyMs: health?.platformProbe?.latencyMs ?? null,
    errors: health ? Object.values(health.platformErrors).reduce((sum, count) => sum + count, 0) : null,
    outOfServiceMinutes: health?.outOfServiceMinutes ?? null,
    locksHeld: health?.locksHeld ?? null,
    scanner: health ? `${health.scanner.connection}${health.scanner.state === 'not_used' ? '' : ` ${health.scanner.state}`}` : null,
    screen: health ? (health.asleep ? 'asleep' : health.screen) : null,
    groups: health?.groups ?? [],
    lastSeen: health?.at ?? null,
    stale: health !== null && now - health.at > STALE_AFTER_MS,
  };
}

/** The rows of every kiosk the broker knows, by id; `group` keeps only that group's. */
export function rosterRows(records: ReadonlyMap<string, KioskRecord>, now: number, group?: string): RosterRow[] {
  return [...records]
    .map(([kioskId, record]) => rosterRow(kioskId, record, now))
    .filter((row) => group === undefined || row.groups.includes(group))
    .sort((a, b) => a.kioskId.localeCompare(b.kioskId));
}

const iso = (at: number | null) => (at === null ? '' : new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** "5m ago", "2h ago": how long since, for a terminal. */
function ago(at: number | null, now: number): string {
  if (at === null) return '-';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 90) return `${seconds}s ago`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
}

const dash = (value: string | number | null) => (value === null ? '-' : String(value));

/** The table's header and cells: one line per kiosk. */
export function rosterTable(rows: readonly RosterRow[], now: number): string[][] {
  const header = ['KIOSK', 'STATUS', 'SINCE', 'VERSION', 'CHANNEL', 'UPDATE', 'MODE', 'PLATFORM', 'ERRORS', 'OOS MIN', 'LOCKS', 'SCANNER', 'SCREEN', 'LAST SEEN'];
  return [
    header,
    ...rows.map((row) => [
      row.kioskId,
      row.status,
      ago(row.since, now),
      dash(row.version),
      dash(row.channel),
      dash(row.update),
      dash(row.mode),
      row.platform === null ? '-' : row.platform === 'available' ? `ok ${dash(row.latencyMs)}ms` : 'DOWN',
      dash(row.errors),
      dash(row.outOfServiceMinutes),
      dash(row.locksHeld),
      dash(row.scanner),
      dash(row.screen),
      `${ago(row.lastSeen, now)}${row.stale ? ' STALE' : ''}`,
    ]),
  ];
}

const CSV_COLUMNS = ['kioskId', 'status', 'since', 'version', 'channel', 'update', 'mode', 'platform', 'latencyMs', 'errors', 'outOfServiceMinutes', 'locksHeld', 'scanner', 'screen', 'groups', 'lastSeen', 'stale'] as const;

/** A text a spreadsheet could run: = + - @ TAB or CR first, after any whitespace (OWASP's CSV injection list). */
const FORMULA = /^\s*[=+\-@\t\r]/;

/**
 * One CSV cell, RFC 4180 (a cell with a comma, quote or line break is quoted, its quotes doubled),
 * every text printable. A text that could be a formula gets a leading ' and quotes, whoever wrote
 * it: only the numbers kioskctl holds are written bare, a negative one included.
 */
function csvCell(value: string | number | boolean | null): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = printable(value ?? '');
  const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  if (FORMULA.test(text)) return quoted(`'${text}`);
  return /[",\r\n]/.test(text) ? quoted(text) : text;
}

export function rosterCsv(rows: readonly RosterRow[]): string {
  const cell = (row: RosterRow, column: (typeof CSV_COLUMNS)[number]) => {
    const value = row[column];
    return column === 'since' || column === 'lastSeen' ? iso(row[column]) : Array.isArray(value) ? value.join(' ') : value;
  };
  return [CSV_COLUMNS.join(','), ...rows.map((row) => CSV_COLUMNS.map((column) => csvCell(cell(row, column))).join(','))].join('\r\n').concat('\r\n');
}

/** The rows as JSON, every text in them printable as in the table. */
export function rosterJson(rows: readonly RosterRow[]): string {
  return `${JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'string' ? printable(value) : value), 2)}\n`;
}

/** What changed for one kiosk between two looks, in a few words each, for `fleet watch`. */
export function rowChanges(before: RosterRow | undefined, after: RosterRow): string[] {
  if (!before) return ['seen'];
  const changes: string[] = [];
  if (before.status !== after.status) changes.push(after.status === 'offline' ? 'went OFFLINE' : `is ${after.status}`);
  if (before.platform !== after.platform && after.platform !== null) changes.push(after.platform === 'unavailable' ? 'OUT OF SERVICE (platform unavailable)' : 'back in service');
  if (before.stale !== after.stale) changes.push(after.stale ? 'health STALE' : 'health fresh again');
  if ((before.screen === 'asleep') !== (after.screen === 'asleep')) changes.push(after.screen === 'asleep' ? 'asleep (quiet hours)' : 'awake');
  if (before.version !== after.version && before.version !== null) changes.push(`version ${after.version}`);
  return changes;
}
