import { z } from 'zod';
import { VoucherStatus } from '../api/vouchers.std.ts';
import { KioskConfig } from './config-schema.std.ts';
import { ScanSource } from './scan.std.ts';
import { UpdateState } from './update-state.std.ts';

/** What the store manager's console is shown: settings without the PIN hash, secrets only as "stored". */

/**
 * The console's session: main locks it after this long without a manager call, and the renderer
 * closes it after this long untouched (touches renew main's session meanwhile).
 */
export const CONSOLE_TIMEOUT_MS = 2 * 60_000;

export const ManagerStatus = z.object({
  /** No PIN yet: on a fresh kiosk (demo, no stored secrets) the console opens straight to the setup wizard. */
  pinSet: z.boolean(),
  /**
   * Why the console cannot open at all, with no PIN set: `pin_required` when the kiosk has stored
   * secrets or a platform address; the PIN is then set with `kioskctl pin set`. Null otherwise.
   */
  setupBlocked: z.enum(['pin_required']).nullable(),
  /**
   * The console is the demo's only: on a fresh demo kiosk whose keychain cannot be read, the
   * first-run wizard keeps the demo and sets the PIN (in the config file), nothing more; a PIN set
   * there opens no more than that until an admin sets the PIN with `kioskctl pin set`.
   */
  setupDemoOnly: z.boolean(),
  /** The platform-admin tab (account-wide reward attributes) is open on this kiosk: console.platformAdmin, set by IT. */
  platformAdmin: z.boolean(),
  unlocked: z.boolean(),
  /** Epoch ms until which the PIN pad is locked after repeated wrong PINs. */
  lockedUntil: z.number().int().nullable(),
  attemptsLeft: z.number().int(),
});
export type ManagerStatus = z.infer<typeof ManagerStatus>;

export const SecretName = z.enum(['apiKey', 'accessToken', 'personalAccessToken', 'mqttPassword']);
export type SecretName = z.infer<typeof SecretName>;

export const SecretsStatus = z.object({
  keychain: z.enum(['available', 'unavailable']),
  reason: z.string().optional(),
  stored: z.record(SecretName, z.boolean()),
});

export const ConsoleSettings = z.object({
  demo: z.boolean(),
  config: KioskConfig.omit({ manager: true }),
  /** Set by the provisioning file: shown read-only. */
  lockedKeys: z.array(z.string()),
  secrets: SecretsStatus,
});
export type ConsoleSettings = z.infer<typeof ConsoleSettings>;

/** Why one check of the connection test failed (the platform's error kind, or plain http), for the console to say in words. */
export const CheckProblem = z.enum(['insecure', 'network', 'timeout', 'auth', 'not_found', 'conflict', 'validation', 'maintenance', 'server', 'rate_limited', 'bad_response']);
export type CheckProblem = z.infer<typeof CheckProblem>;

export const ConnectionCheck = z.object({
  ok: z.boolean(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), problem: CheckProblem.optional() })),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;

export const AdminVoucher = z.object({
  uuid: z.string(),
  code: z.string(),
  status: VoucherStatus,
  name: z.string(),
  promotion: z.object({ uuid: z.string(), name: z.string() }),
  contact: z.object({ uuid: z.string(), email: z.string() }).nullable(),
  activationDate: z.string(),
  expirationDate: z.string().nullable(),
  redeemedAt: z.string().nullable(),
  timesRedeemed: z.number().int().nullable(),
  totalRedemptionsAllowed: z.number().int().nullable(),
  attributes: z.record(z.string(), z.unknown()),
});
export type AdminVoucher = z.infer<typeof AdminVoucher>;

export const AdminVoucherPage = z.object({
  vouchers: z.array(AdminVoucher),
  page: z.number().int(),
  lastPage: z.number().int(),
  total: z.number().int(),
});

export const AdminRewardAttribute = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  type: z.string(),
  fieldType: z.string(),
  placeholder: z.string().nullable(),
  options: z.array(z.object({ label: z.string(), value: z.string() })),
  isServiceDefined: z.boolean(),
  isSoftReadOnly: z.boolean(),
  isHardReadOnly: z.boolean(),
});
export type AdminRewardAttribute = z.infer<typeof AdminRewardAttribute>;

/** One fleet command the kiosk took: its outcome in words (`ok`, `waiting: …`, or the error). */
export const FleetCommandEntry = z.object({
  at: z.number().int(),
  command: z.string(),
  id: z.string().nullable(),
  /** The topic it came on: the kiosk's own, a group's or the whole fleet's. */
  via: z.string(),
  /** The operator the command names (kioskctl names its MQTT user), null when it names none. */
  by: z.string().nullable(),
  outcome: z.string(),
});
export type FleetCommandEntry = z.infer<typeof FleetCommandEntry>;

/** The kiosk's line to its fleet broker, for the console: never the credentials. */
export const FleetConnection = z.object({
  /**
   * `off`: no broker configured; `offline`: it was online and lost the broker; `refused`: the broker
   * turned the kiosk down; `password_needed`: the broker moved and its password is to be entered.
   */
  state: z.enum(['off', 'connecting', 'online', 'offline', 'refused', 'password_needed']),
  lastError: z.string().nullable(),
  /** The broker's host and port (the URL without credentials or path). */
  broker: z.string().nullable(),
  kioskId: z.string().nullable(),
  /** When health was last published (epoch ms), or null: not yet. */
  lastHealthAt: z.number().int().nullable(),
  /** The latest fleet commands, newest last. */
  recentCommands: z.array(FleetCommandEntry),
});
export type FleetConnection = z.infer<typeof FleetConnection>;

/** What a manager reads in the diagnostics timeline: the log's events that matter on a shop floor. */
export const TimelineKind = z.enum([
  'started',
  'stopped',
  'out_of_service',
  'back_in_service',
  'scanner_lost',
  'scanner_back',
  'update_installing',
  'update_failed',
  'update_not_started',
  'redemption_unsettled',
  'screen_crashed',
  'staff_called',
  'z_closed',
  'setup_undone',
]);
export type TimelineKind = z.infer<typeof TimelineKind>;

export const Diagnostics = z.object({
  version: z.string(),
  demo: z.boolean(),
  platformOrigin: z.string().nullable(),
  api: z.object({ reachable: z.boolean(), latencyMs: z.number().nullable(), problem: z.string().nullable() }),
  secrets: SecretsStatus,
  scanner: z.object({
    connection: z.string(),
    state: z.string(),
    path: z.string().nullable(),
    lastError: z.string().optional(),
    /** The last scan from any source: main sees serial scans, the renderer reports the others. */
    lastScanAt: z.number().optional(),
    lastScanSource: ScanSource.optional(),
  }),
  /** Lines the log file could not take (disk full, read-only) since the kiosk started, and why. */
  log: z.object({ droppedLines: z.number().int().min(0), lastProblem: z.string().nullable() }),
  /** Already redacted by the log sink. */
  logTail: z.array(z.string()),
  /** The newest events that matter on a shop floor, oldest first, from every kept log file. */
  timeline: z.array(z.object({ at: z.number(), kind: TimelineKind })),
  /** The auto-update: channel, feed, what is available, downloaded, or failed. */
  update: UpdateState,
  fleet: FleetConnection,
  /** The receipt printer, asked when the report was made: its kind, and how it is (ready, or why not). */
  printer: z.object({ kind: z.string(), state: z.string(), checkedAt: z.number().int().nullable() }),
});
export type Diagnostics = z.infer<typeof Diagnostics>;
