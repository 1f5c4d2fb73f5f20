import { z } from 'zod';
import { KioskScreen, ScannerStatus } from '../../common/contract.std.ts';
import { ServiceStatus } from '../../common/shopper-views.std.ts';
import { UpdateChannel, UpdateState } from '../../common/update-state.std.ts';

/** How the receipt printer was when last asked, as health says it (and Home Assistant's enum lists it). */
export const PRINTER_HEALTH_STATES = ['none', 'unknown', 'ready', 'paper_near_end', 'paper_out', 'cover_open', 'offline', 'unreachable', 'no_answer'] as const;

/**
 * What a kiosk publishes to its fleet broker, and what the broker may ask of it. Health carries the
 * kiosk's state only: no shopper data, no scan values, no secrets.
 */
export const FleetHealth = z
  .object({
    /** When this health was made (epoch ms): retained health that is old tells of a kiosk gone quiet. */
    at: z.number().int(),
    kioskId: z.string(),
    /** api.shopUuid; null in demo mode or before it is set. */
    shop: z.string().nullable(),
    /** fleet.groups, from provisioning. */
    groups: z.array(z.string()),
    /** A short hash of the settings in force (the PIN hash left out): kiosks that differ stand out. */
    settings: z.string(),
    /** Quiet hours: the screen is black and the scanner closed until a touch or the hours end. */
    asleep: z.boolean(),
    /** Since when `platformErrors` and `outOfServiceMinutes` count (epoch ms); they survive restarts. */
    countersSince: z.number().int(),
    version: z.string(),
    mode: z.enum(['demo', 'connected']),
    /** The platform as the kiosk last found it (ServiceHealth). */
    platform: ServiceStatus,
    /** The platform's last probe: its answer time in ms (null: no answer) and when (epoch ms); null before the first. */
    platformProbe: z.object({ latencyMs: z.number().int().min(0).nullable(), at: z.number().int() }).strict().nullable(),
    /** Failed platform calls since `countersSince`, by `kind[:httpStatus[:platformCode]]`, e.g. `{"conflict:409:80005": 2}`. */
    platformErrors: z.record(z.string(), z.number().int().min(1)),
    /** Minutes the kiosk showed "out of service" since `countersSince` (one decimal), the current outage included. */
    outOfServiceMinutes: z.number().min(0),
    /** What the screens show: `visit` (a shopper), `console` (a manager), `attract`, or `none` reported yet. */
    screen: z.union([KioskScreen, z.literal('none')]),
    /** Voucher locks in the journal: held, or being taken. */
    locksHeld: z.number().int().min(0),
    /**
     * A shopper's call for staff still standing (#33 §11): since when (epoch ms) and the problem on
     * their screen; null when none. Absent from kiosks older than the call.
     */
    staffCalled: z.object({ since: z.number().int(), reason: z.string().max(80) }).strict().nullable().optional(),
    /**
     * The redemption ledger: `writable` false means the kiosk refuses redemptions (`problem` says
     * why); `setAside`: a damaged ledger file was kept aside at this start; `mismatches`: where
     * the platform disagreed with the newest reconciled Z; `unreconciledShifts`: closed shifts not
     * yet checked against the platform. Absent from kiosks older than the ledger.
     */
    ledger: z
      .object({
        writable: z.boolean(),
        problem: z.string().max(500).nullable(),
        setAside: z.boolean(),
        mismatches: z.number().int().min(0),
        unreconciledShifts: z.number().int().min(0),
      })
      .strict()
      .optional(),
    /**
     * The receipt printer (#31 §3): its kind, and how it was when last asked (`ready`,
     * `paper_near_end`, `paper_out`, `cover_open`, `offline`, `unreachable`, `no_answer`; `none`
     * without one, `unknown` before the first answer) and when (epoch ms). Absent from kiosks older
     * than the printer.
     */
    printer: z
      .object({
        kind: z.enum(['none', 'preview', 'serial', 'usb', 'network']),
        state: z.enum(PRINTER_HEALTH_STATES),
        checkedAt: z.number().int().nullable(),
      })
      .strict()
      .optional(),
    /**
     * The desired settings (#35 §1): `none` when no layer is on the broker for this kiosk; `applied`
     * when the settings in force are what its layers ask; `drifting` when some are not, each such
     * key with why (refused, locked by provisioning, changed here since). Absent from kiosks older
     * than desired settings.
     */
    desiredSettings: z
      .object({
        state: z.enum(['none', 'applied', 'drifting']),
        drift: z.record(z.string().max(200), z.string().max(300)),
      })
      .strict()
      .optional(),
    /**
     * What is wrong with the provisioning file, each problem by key, when it is invalid: the kiosk
     * serves no shopper ("setup needed") and joined the broker on the file's fleet section alone.
     * Null when it is valid or missing; absent from kiosks older than the check.
     */
    setupNeeded: z.string().max(2000).nullable().optional(),
    /** The scanner's connection and state; its last scan's time (epoch ms), never its value. */
    scanner: z
      .object({
        connection: ScannerStatus.shape.connection,
        state: ScannerStatus.shape.state,
        lastScanAt: z.number().int().nullable(),
      })
      .strict(),
    logLinesDropped: z.number().int().min(0),
    /** Bytes free for the kiosk's data folder; null when the disk could not be asked. */
    freeDiskBytes: z.number().int().min(0).nullable(),
    uptimeSeconds: z.number().int().min(0),
    /**
     * `update.channel`, the same as `update.channel` below. Kept at the top on purpose: the health
     * schema is strict at both ends and a fleet mid-rollout mixes versions, so dropping it would
     * make older kioskctl and dashboards refuse newer kiosks' health.
     */
    channel: UpdateChannel,
    /** The auto-update's state; `failedVersion` set means a rollback candidate (see docs/updates.md). */
    update: UpdateState,
  })
  .strict();
export type FleetHealth = z.infer<typeof FleetHealth>;

export const FLEET_COMMANDS = ['doctor', 'diagnostics', 'config-set', 'restart', 'reload', 'screenshot', 'update-check', 'report'] as const;
export type FleetCommandName = (typeof FLEET_COMMANDS)[number];

/**
 * Every command's payload: a correlation id the answer carries back, then the command's own fields.
 * `expiresAt` (epoch ms, or an ISO 8601 time with its offset): a command that arrives later is refused.
 */
export const CommandRequest = z
  .object({
    id: z.string().min(1).max(200),
    /**
     * Who sent it, as the sender says (kioskctl: its MQTT user, else its client id): for the audit
     * of who restarted what. The broker's ACL decides who may command at all; this names them.
     */
    operator: z.string().max(100).optional(),
    expiresAt: z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true }).transform((text) => Date.parse(text))]).optional(),
  })
  .loose();

export const ConfigSetArgs = z.object({ values: z.record(z.string(), z.unknown()) });
export const RestartArgs = z.object({ force: z.boolean().default(false) });
/**
 * `report`: the open shift's X (no field), Z number `z`, or the last Z closed on the kiosk's local
 * date `day` (YYYY-MM-DD). Its answer is a ShiftReport: counts by promotion, voucher name, reason
 * and code, no shopper data.
 */
export const ReportArgs = z.union([
  z.object({ z: z.number().int().positive() }).strict(),
  z.object({ day: z.iso.date() }).strict(),
  z.object({}).strict(),
]);

/**
 * A command's answer on `…/cmd/<name>/result`. `id` is null when the request had none readable. A
 * failed answer may still carry what the command found (a doctor's checks, some of them failing).
 * `by` is the request's `operator`, only when it named one: a sender that names no operator (an
 * older kioskctl, whose reading allows no field it does not know) gets answers without it.
 */
const answeredBy = { replayed: z.literal(true).optional(), by: z.string().max(100).optional() };
export const CommandResult = z.discriminatedUnion('ok', [
  z.strictObject({ id: z.string().nullable(), ok: z.literal(true), result: z.unknown(), ...answeredBy }),
  z.strictObject({ id: z.string().nullable(), ok: z.literal(false), error: z.string(), result: z.unknown().optional(), ...answeredBy }),
]);
export type CommandResult = z.infer<typeof CommandResult>;

/** A command that ran and found something wrong: its answer is not ok, and still carries what it found. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly result: unknown,
  ) {
    super(message);
  }
}

/**
 * Said at once, on the same result topic, by a command that cannot run yet (a visit is on, or it
 * waits behind another command); its result follows when it has run.
 */
export const CommandWaiting = z.strictObject({ id: z.string(), state: z.literal('waiting'), reason: z.string() });
export type CommandWaiting = z.infer<typeof CommandWaiting>;

/** Anything a kiosk publishes on a result topic. */
export const CommandAnswer = z.union([CommandResult, CommandWaiting]);
export type CommandAnswer = z.infer<typeof CommandAnswer>;

/**
 * What Home Assistant's buttons press, on the kiosk's own `<prefix>/<kioskId>/ha/<name>`: the
 * broker lets Home Assistant write there, and on no group or fleet-wide topic.
 */
export const HOME_ASSISTANT_COMMANDS: readonly FleetCommandName[] = ['restart', 'reload'];

/** The topics of one kiosk: `<prefix>/<kioskId>/…`, and the group and fleet-wide ones it takes commands on. */
export function fleetTopics(prefix: string, kioskId: string, groups: readonly string[] = []) {
  const base = `${prefix}/${kioskId}`;
  /** Where commands come from: the kiosk's own topic, each of its groups', and the whole fleet's. */
  const commandBases = [base, ...groups.map((group) => `${prefix}/group/${group}`), `${prefix}/all`];
  const homeAssistantBase = `${base}/ha/`;
  return {
    base,
    status: `${base}/status`,
    health: `${base}/health`,
    commands: [...commandBases.map((commandBase) => `${commandBase}/cmd/+`), `${homeAssistantBase}+`],
    /** The desired settings' layers, the weakest first: the whole fleet's, each group's in turn, the kiosk's own. */
    settings: [`${prefix}/all/settings`, ...groups.map((group) => `${prefix}/group/${group}/settings`), `${base}/settings`],
    result: (name: string) => `${base}/cmd/${name}/result`,
    /** Where Home Assistant presses `name` for this kiosk alone. */
    homeAssistantCommand: (name: FleetCommandName) => `${homeAssistantBase}${name}`,
    /** The command a topic names, or null for a topic that is none (a result, another level, what Home Assistant may not press). */
    commandOf: (topic: string) => {
      if (topic.startsWith(homeAssistantBase)) {
        const pressed = topic.slice(homeAssistantBase.length);
        return HOME_ASSISTANT_COMMANDS.find((name) => name === pressed) ?? null;
      }
      const commandBase = commandBases.find((candidate) => topic.startsWith(`${candidate}/cmd/`));
      const name = commandBase === undefined ? null : topic.slice(commandBase.length + 5);
      return name && !name.includes('/') ? name : null;
    },
  };
}

/** Who a command or a layer of desired settings is for: one kiosk, a group, or the whole fleet. */
export type FleetTarget = { kioskId: string } | { group: string } | 'all';

const targetBase = (prefix: string, target: FleetTarget) => (target === 'all' ? `${prefix}/all` : 'group' in target ? `${prefix}/group/${target.group}` : `${prefix}/${target.kioskId}`);

/**
 * One layer of desired settings, as retained on `<prefix>/all/settings`, `<prefix>/group/<g>/settings`
 * or `<prefix>/<kioskId>/settings`: dotted keys and their values. State, not a command: a kiosk
 * applies its layers (the fleet's, its groups', its own, the later winning) at every connect and
 * on every change; the rules of config-set hold (no manager.* or fleet.*; schema-checked;
 * provisioning-locked keys stay as provisioned).
 */
export const DesiredSettings = z.record(z.string().min(1).max(200), z.unknown());
export type DesiredSettings = z.infer<typeof DesiredSettings>;
/** A layer larger than this is not read: a settings layer is a few keys. */
export const MAX_SETTINGS_BYTES = 64 * 1024;

/** A layer as the broker holds it, or null when a kiosk would ignore it (over MAX_SETTINGS_BYTES, no JSON, no settings object). */
export function readSettingsLayer(payload: Uint8Array): DesiredSettings | null {
  if (payload.byteLength > MAX_SETTINGS_BYTES) return null;
  try {
    return DesiredSettings.safeParse(JSON.parse(new TextDecoder().decode(payload))).data ?? null;
  } catch {
    return null;
  }
}

/** The topics an operator reads and writes for the whole fleet under one prefix. */
export function fleetWideTopics(prefix: string) {
  return {
    statuses: `${prefix}/+/status`,
    healths: `${prefix}/+/health`,
    results: (name: string) => `${prefix}/+/cmd/${name}/result`,
    /** The kiosk a `<prefix>/<kioskId>/…` topic is about, or null. */
    kioskOf: (topic: string) => (topic.startsWith(`${prefix}/`) ? (topic.slice(prefix.length + 1).split('/')[0] ?? null) : null),
    command: (target: FleetTarget, name: string) => `${targetBase(prefix, target)}/cmd/${name}`,
    /** Where the desired settings of a layer are kept, retained. */
    settings: (target: FleetTarget) => `${targetBase(prefix, target)}/settings`,
  };
}
