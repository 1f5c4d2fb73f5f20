import { kioskIdLevel } from '../../../common/config-schema.std.ts';
import { FleetHealth } from '../../fleet/fleet-messages.std.ts';
import { csvDocument, printableJson } from '../../../base/csv.std.ts';
import { cut } from '../table.std.ts';

export { KIOSKCTL_LEVEL } from '../../../common/config-schema.std.ts';

/** A topic's kiosk level names a kiosk: a valid kiosk id (the settings' own rule, which keeps kioskctl's marker level out). */
export function isKioskId(level: string): boolean {
  return kioskIdLevel.safeParse(level).success;
}

/** Health is published every minute: three missed in a row and it is stale. */
export const STALE_AFTER_MS = 180_000;

/** The largest health kioskctl reads (a kiosk's is about 1.5 kB): a bigger one is skipped unread. */
export const MAX_HEALTH_BYTES = 64 * 1024;
/** The most kiosks kioskctl keeps in memory: a broker holding more lists the first this many it sends. */
export const MAX_KIOSKS = 10_000;
/** The longest text of a kiosk's kioskctl keeps (a topic level's length: a kiosk id, a group), cut with `…`. */
const MAX_TEXT = 64;
/** As many groups as a kiosk's settings may have. */
const MAX_GROUPS = 16;
/** The most drifting keys kept of one kiosk's health. */
const MAX_DRIFT = 20;

/** What kioskctl keeps of one kiosk's health: the figures it shows, every text cut to MAX_TEXT, never the payload. */
export interface HealthSeen {
  at: number;
  startedAt: number;
  version: string;
  channel: string;
  update: string;
  mode: string;
  platform: 'available' | 'unavailable';
  latencyMs: number | null;
  errors: number;
  outOfServiceMinutes: number;
  locksHeld: number;
  scanner: string;
  /** What the screen shows, or `asleep` in quiet hours. */
  screen: string;
  groups: string[];
  shop: string | null;
  freeDiskBytes: number | null;
  uptimeSeconds: number;
  /** What is wrong with its provisioning file (cut), when it is invalid. */
  setupNeeded: string | null;
  /** The desired settings: `applied`, `drifting` or `none`; null from a kiosk older than them. */
  settings: 'none' | 'applied' | 'drifting' | null;
  /** Each key not in force as the layers ask, and why (at most MAX_DRIFT, cut). */
  drift: Record<string, string>;
}

/** What the broker holds for one kiosk: its retained status and health, either possibly missing. */
export interface KioskRecord {
  status: 'online' | 'offline' | null;
  health: HealthSeen | null;
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
  screen: string | null;
  groups: string[];
  shop: string | null;
  freeDiskBytes: number | null;
  uptimeSeconds: number | null;
  setupNeeded: string | null;
  settings: HealthSeen['settings'];
  drift: Record<string, string>;
  lastSeen: number | null;
  /** The health is older than STALE_AFTER_MS: the figures may no longer hold. */
  stale: boolean;
}

/**
 * What kioskctl keeps of a retained health payload, or null when it is none: an old kiosk's,
 * garbage on the topic, or one over MAX_HEALTH_BYTES (not even decoded).
 */
export function readHealth(payload: Uint8Array): HealthSeen | null {
  if (payload.byteLength > MAX_HEALTH_BYTES) return null;
  try {
    // Loose at the top: a newer kiosk's health may carry a field this kioskctl does not know yet.
    const health = FleetHealth.loose().safeParse(JSON.parse(new TextDecoder().decode(payload))).data;
    return health ? healthSeen(health) : null;
  } catch {
    return null;
  }
}

function healthSeen(health: FleetHealth): HealthSeen {
  const { update, scanner } = health;
  return {
    at: health.at,
    startedAt: health.at - health.uptimeSeconds * 1000,
    version: cut(health.version, MAX_TEXT),
    channel: health.channel,
    update: cut(`${update.state}${update.availableVersion ? ` ${update.availableVersion}` : ''}`, MAX_TEXT),
    // An invalid provisioning file outweighs the mode: the kiosk serves no shopper.
    mode: health.setupNeeded ? 'SETUP NEEDED' : health.mode,
    setupNeeded: health.setupNeeded ? cut(health.setupNeeded, 500) : null,
    platform: health.platform.available ? 'available' : 'unavailable',
    latencyMs: health.platformProbe?.latencyMs ?? null,
    errors: Object.values(health.platformErrors).reduce((sum, count) => sum + count, 0),
    outOfServiceMinutes: health.outOfServiceMinutes,
    locksHeld: health.locksHeld,
    scanner: `${scanner.connection}${scanner.state === 'not_used' ? '' : ` ${scanner.state}`}`,
    screen: health.asleep ? 'asleep' : health.screen,
    groups: health.groups.slice(0, MAX_GROUPS).map((group) => cut(group, MAX_TEXT)),
    shop: health.shop === null ? null : cut(health.shop, MAX_TEXT),
    freeDiskBytes: health.freeDiskBytes,
    uptimeSeconds: health.uptimeSeconds,
    settings: health.desiredSettings?.state ?? null,
    drift: Object.fromEntries(
      Object.entries(health.desiredSettings?.drift ?? {})
        .slice(0, MAX_DRIFT)
        .map(([key, why]) => [cut(key, MAX_TEXT), cut(why, 160)]),
    ),
  };
}

export function rosterRow(kioskId: string, { status, health }: KioskRecord, now: number): RosterRow {
  return {
    kioskId,
    status: status ?? 'unknown',
    since: !health ? null : status === 'offline' ? health.at : health.startedAt,
    version: health?.version ?? null,
    channel: health?.channel ?? null,
    update: health?.update ?? null,
    mode: health?.mode ?? null,
    platform: health?.platform ?? null,
    latencyMs: health?.latencyMs ?? null,
    errors: health?.errors ?? null,
    outOfServiceMinutes: health?.outOfServiceMinutes ?? null,
    locksHeld: health?.locksHeld ?? null,
    scanner: health?.scanner ?? null,
    screen: health?.screen ?? null,
    groups: health?.groups ?? [],
    shop: health?.shop ?? null,
    setupNeeded: health?.setupNeeded ?? null,
    freeDiskBytes: health?.freeDiskBytes ?? null,
    uptimeSeconds: health?.uptimeSeconds ?? null,
    settings: health?.settings ?? null,
    drift: health?.drift ?? {},
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

/** What an operator should know a list leaves out: kiosks with no health to show, and any past the most kept. */
export function rosterNotes({ records, full }: { records: ReadonlyMap<string, KioskRecord>; full: boolean }): string[] {
  const unread = [...records].filter(([, record]) => record.status !== null && record.health === null).map(([kioskId]) => kioskId);
  const notes: string[] = [];
  if (unread.length > 0) notes.push(`no health to show for ${someKiosks(unread.sort())}: none yet, not a kiosk's health, or over ${MAX_HEALTH_BYTES / 1024} KiB (skipped unread)`);
  if (full) notes.push(`the broker holds more kiosks than kioskctl keeps (${records.size}): the others are not listed`);
  const setupNeeded = [...records].filter(([, record]) => record.health?.setupNeeded);
  for (const [kioskId, record] of setupNeeded.slice(0, 10)) notes.push(`${kioskId} serves no shopper: its provisioning file is invalid: ${record.health!.setupNeeded}`);
  return notes;
}

/** Kiosk ids for a line: the first ten, then how many more. */
export function someKiosks(kioskIds: readonly string[]): string {
  return kioskIds.length <= 10 ? kioskIds.join(', ') : `${kioskIds.slice(0, 10).join(', ')} and ${kioskIds.length - 10} more`;
}

/** An epoch-ms time as ISO 8601 to the second; '' for none, or for one no date can hold (a kiosk's health may say anything). */
const iso = (at: number | null) => (at === null || !Number.isFinite(new Date(at).getTime()) ? '' : new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'));

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

/** "12.3G": bytes for a terminal. */
function bytes(value: number | null): string {
  if (value === null) return '-';
  const [size, unit] = value >= 1e12 ? [value / 1e12, 'T'] : value >= 1e9 ? [value / 1e9, 'G'] : value >= 1e6 ? [value / 1e6, 'M'] : [value / 1e3, 'k'];
  return `${size.toFixed(1)}${unit}`;
}

/** "3d 4h", "5h 2m", "12m": how long up, for a terminal. */
function uptime(seconds: number | null): string {
  if (seconds === null) return '-';
  const [days, hours, minutes] = [Math.floor(seconds / 86_400), Math.floor((seconds % 86_400) / 3_600), Math.floor((seconds % 3_600) / 60)];
  return days > 0 ? `${days}d ${hours}h` : hours > 0 ? `${hours}h ${minutes}m` : `${minutes}m`;
}

/** The desired settings in a word or two: `applied`, `DRIFTING (2)`, `none`, or `-` from an older kiosk. */
const settingsCell = (row: RosterRow) => (row.settings === 'drifting' ? `DRIFTING (${Object.keys(row.drift).length})` : dash(row.settings));

/** The table's header and cells: one line per kiosk. */
export function rosterTable(rows: readonly RosterRow[], now: number): string[][] {
  const header = ['KIOSK', 'STATUS', 'SINCE', 'VERSION', 'CHANNEL', 'UPDATE', 'MODE', 'PLATFORM', 'ERRORS', 'OOS MIN', 'LOCKS', 'SCANNER', 'SCREEN', 'SETTINGS', 'SHOP', 'DISK FREE', 'UPTIME', 'LAST SEEN'];
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
      settingsCell(row),
      // A shop's uuid in full is 36 characters: its first 8 tell shops apart on a terminal (JSON and CSV have it whole).
      row.shop === null ? '-' : cut(row.shop, 9),
      bytes(row.freeDiskBytes),
      uptime(row.uptimeSeconds),
      `${ago(row.lastSeen, now)}${row.stale ? ' STALE' : ''}`,
    ]),
  ];
}

const CSV_COLUMNS = ['kioskId', 'status', 'since', 'version', 'channel', 'update', 'mode', 'platform', 'latencyMs', 'errors', 'outOfServiceMinutes', 'locksHeld', 'scanner', 'screen', 'groups', 'settings', 'shop', 'freeDiskBytes', 'uptimeSeconds', 'lastSeen', 'stale'] as const;

export function rosterCsv(rows: readonly RosterRow[]): string {
  const cell = (row: RosterRow, column: (typeof CSV_COLUMNS)[number]) => {
    const value = row[column];
    return column === 'since' || column === 'lastSeen' ? iso(row[column]) : Array.isArray(value) ? value.join(' ') : (value as string | number | boolean | null);
  };
  return csvDocument(CSV_COLUMNS, rows.map((row) => CSV_COLUMNS.map((column) => cell(row, column))));
}

/** The rows as JSON, every text in them printable as in the table. */
export function rosterJson(rows: readonly RosterRow[]): string {
  return `${printableJson(rows, 2)}\n`;
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
  if (before.setupNeeded === null && after.setupNeeded !== null) changes.push(`SETUP NEEDED: ${after.setupNeeded}`);
  if (before.settings !== after.settings && after.settings !== null) changes.push(after.settings === 'drifting' ? `settings DRIFTING: ${Object.keys(after.drift).join(', ')}` : `settings ${after.settings}`);
  return changes;
}
