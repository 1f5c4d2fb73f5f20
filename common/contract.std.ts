import { z } from 'zod';
import { KioskConfig, KioskMode, Locale, ScanPlacement } from './config-schema.std.ts';
import { Email, Pin, SETUP_CARD_MAX_CHARS, SetupCode } from './input-rules.std.ts';
import { Scan, ScanSource } from './scan.std.ts';
import { BusinessDay, RedemptionEventView, ShiftReport, SlipRecord, ZSummary } from './report-views.std.ts';
import { SpeechLevel, SpeechSetting, Utterance } from './speech.std.ts';
import {
  DemoSamples,
  LockAnswer,
  LookupResult,
  PortalSessionView,
  RedeemOutcome,
  ReleaseOutcome,
  ServiceStatus,
  ShopperView,
  VoucherCheck,
  VoucherPage,
} from './shopper-views.std.ts';
import {
  AdminRewardAttribute,
  AdminVoucher,
  AdminVoucherPage,
  ConnectionCheck,
  ConsoleSettings,
  Diagnostics,
  ManagerStatus,
  SecretName,
  SecretsStatus,
} from './manager-views.std.ts';
import { CreateVoucherBody, ListVouchersQuery, UpdateVoucherBody } from '../api/vouchers.std.ts';
import { CreateRewardAttributeBody } from '../api/reward-attributes.std.ts';

/**
 * The bridge contract: every call the renderer may make and every event main may send, each with
 * its schema. Main validates every incoming payload and every answer against it; the preload
 * validates events on the way in. Nothing else crosses the process boundary.
 */

const NoInput = z.object({}).strict();

/** The longest settings file the console imports: room for every setting, a 48 KB slip logo among them. */
export const SETTINGS_FILE_MAX_CHARS = 200_000;

/** What the shopper screens need to know of the settings: never secrets, never the PIN hash. */
export const KioskSettingsView = z.object({
  demo: z.boolean(),
  /**
   * What is wrong with the provisioning file, each problem by key, when it is invalid (null when it
   * is valid or missing): the kiosk then serves no shopper and shows "setup needed", with this for staff.
   */
  setupNeeded: z.string().max(2000).nullable(),
  /** The kiosk's modes in order (kiosk.modes): native ones serve the kiosk's own screens, each other one a tile. */
  modes: KioskConfig.shape.kiosk.unwrap().shape.modes,
  session: KioskConfig.shape.session.unwrap(),
  scannerConnection: KioskConfig.shape.scanner.unwrap().shape.connection,
  /** For the keyboard-wedge detector: keys averaging this far apart or closer are a scanner. */
  wedgeMaxAverageIntervalMs: KioskConfig.shape.scanner.unwrap().shape.wedge.unwrap().shape.maxAverageIntervalMs,
  /** The barcode formats the camera reads (scanner.camera.formats). */
  cameraFormats: KioskConfig.shape.scanner.unwrap().shape.camera.unwrap().shape.formats,
  /** Where each scanning device is (scanner.placement, scanner.camera.placement). */
  scanPlacement: z.object({ camera: ScanPlacement, hand_scanner: ScanPlacement }),
  idleTimeoutSeconds: z.number().int(),
  /** The idle time on home after "Another voucher" (idle.afterRedeemSeconds). */
  idleAfterRedeemSeconds: z.number().int(),
  /** How long the redeemed screen shows the proof for the till (idle.proofSeconds). */
  proofSeconds: z.number().int(),
  /** What the redeemed screen tells the shopper to do with the proof (proof.tillText); null: the language's own words. */
  tillText: z.string().nullable(),
  /** The programme terms the join screen lets a shopper read (registration.termsText). */
  registrationTerms: z.string().nullable(),
  /** Speech, keys and timeouts for a shopper who cannot see the screen or reach it. */
  accessibility: KioskConfig.shape.accessibility.unwrap(),
  locale: KioskConfig.shape.locale.unwrap(),
  brand: KioskConfig.shape.brand.unwrap(),
});
export type KioskSettingsView = z.infer<typeof KioskSettingsView>;
/** The shop's name, colour and logo, as the shopper screens show them. */
export type Brand = KioskSettingsView['brand'];

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  demo: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const ScannerStatus = z.object({
  connection: KioskConfig.shape.scanner.unwrap().shape.connection,
  /** Serial only; a keyboard-wedge scanner is invisible to main. */
  state: z.enum(['connected', 'connecting', 'disconnected', 'error', 'not_configured', 'not_used']),
  path: z.string().nullable(),
  lastError: z.string().optional(),
  lastScanAt: z.number().int().optional(),
});
export type ScannerStatus = z.infer<typeof ScannerStatus>;

export const SerialPortListing = z.array(
  z.object({
    path: z.string(),
    manufacturer: z.string().optional(),
    vendorId: z.string().optional(),
    productId: z.string().optional(),
    serialNumber: z.string().optional(),
  }),
);

const Uuid = z.uuid();
const ScanValue = Scan.shape.value;
/** Why a lock is given back: logged, so staff can tell a cancel from a timeout. */
/**
 * A file the console hands out. Onto a USB stick when one is plugged in; else Electron saves it where
 * the manager picks (a folder chooser; a kiosk never downloads), and the browser host leaves it to
 * the renderer as a download.
 */
const ExportedFile = z.object({
  fileName: z.string(),
  content: z.string(),
  delivery: z.enum(['download', 'saved', 'usb', 'cancelled']),
  savedTo: z.string().optional(),
});

const ReleaseReason = z.enum(['cancel', 'timeout', 'idle']);

/** Typed codes: this many unknown ones in a row, and typing pauses for this long. */
export const TYPED_GUESS_LIMIT = 5;
export const TYPED_PAUSE_SECONDS = 30;

/** What a screen shows, as far as main needs it: the attract screen, a shopper's visit, or the console. */
export const KioskScreen = z.enum(['attract', 'visit', 'console']);
export type KioskScreen = z.infer<typeof KioskScreen>;

/** Quiet hours: while asleep the screen is black and the input that wakes it is swallowed. */
export const SleepState = z.object({ asleep: z.boolean() });

/** Calls anyone at the screen may make: the shopper's visit, and what the kiosk reports of itself. */
export const shopperCalls = {
  getAppInfo: { input: NoInput, output: AppInfo },
  getSettings: { input: NoInput, output: KioskSettingsView },
  /** The renderer reports its own failures so they reach the log file. */
  reportRendererError: {
    input: z.object({ message: z.string().max(2000), where: z.string().max(200).optional() }).strict(),
    output: z.null(),
  },

  getServiceStatus: { input: NoInput, output: ServiceStatus },
  getScannerStatus: { input: NoInput, output: ScannerStatus },
  /** A scan the renderer acted on, for diagnostics' "last scan": its source only, never its value. */
  reportScan: { input: z.object({ source: ScanSource }).strict(), output: z.null() },

  /**
   * What this screen shows now, at every change: main waits for the attract screen (and no lock)
   * before it updates, restarts or sleeps.
   */
  reportScreen: { input: z.object({ screen: KioskScreen }).strict(), output: z.null() },
  /**
   * A shopper told to ask staff asks the kiosk to call them (#33 §11): the kiosk says so aloud, in
   * the shopper's language, and the fleet's health shows the call. `reason`: the problem on screen.
   */
  callStaff: { input: z.object({ reason: z.string().regex(/^[a-z][a-z_.]{0,79}$/), locale: Locale }).strict(), output: z.null() },
  /** Whether the kiosk sleeps (quiet hours): a renderer that loads then comes back asleep. */
  getSleepState: { input: NoInput, output: SleepState },
  /** The first touch, key or scan on the sleeping kiosk: it wakes (and that input is swallowed). */
  wake: { input: NoInput, output: z.null() },
  /**
   * A screen starts (its first load, or a reload after a crash): whether a visit on screen was cut
   * short since, its locks settled by main before this answers. Told once.
   */
  screenStarted: { input: NoInput, output: z.object({ visitInterrupted: z.boolean() }) },

  /**
   * A scan on the attract screen: a card and a voucher code are looked up at once. Only a value
   * main's own scanner read is surely no guess; every other unknown value counts against guessing
   * (a pause after TYPED_GUESS_LIMIT). `source` only labels the ledger's record of how the shopper
   * was known (a card or a typed number); it decides nothing.
   */
  lookupScan: { input: z.object({ value: ScanValue, source: ScanSource.optional() }).strict(), output: LookupResult },
  /** Demo mode's sample cards and voucher codes; empty lists when the kiosk is not in demo mode. */
  getDemoSamples: { input: NoInput, output: DemoSamples },
  identifyByEmail: {
    input: z.object({ email: Email }).strict(),
    output: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('shopper'), shopper: ShopperView }),
      z.object({ kind: z.literal('not_found') }),
    ]),
  },
  /** Joining: creates the contact. */
  registerShopper: {
    input: z.object({ email: Email, consent: z.literal(true) }).strict(),
    output: ShopperView,
  },
  /**
   * Joining with a card: links the unlinked card main last looked up to the contact that joined on
   * this visit (beside loading their home, not in front of it).
   */
  linkJoinedCard: { input: NoInput, output: z.null() },
  getCreditBalance: {
    input: z.object({ contactUuid: Uuid }).strict(),
    /** Null when the platform could not say; the home screen then leaves the balance out. */
    output: z.object({ creditBalance: z.number().int().nullable() }),
  },
  listShopperVouchers: {
    input: z.object({ contactUuid: Uuid, page: z.number().int().min(1).max(10_000) }).strict(),
    output: VoucherPage,
  },
  checkVoucher: {
    input: z.object({ voucherUuid: Uuid, contactUuid: Uuid.optional() }).strict(),
    output: VoucherCheck,
  },
  /** Locks the voucher for this till; main journals the lock before answering. */
  lockVoucher: { input: z.object({ voucherUuid: Uuid, code: ScanValue }).strict(), output: LockAnswer },
  /** `locale`: the shopper's language, for the slip. */
  redeemVoucher: { input: z.object({ voucherUuid: Uuid, contactUuid: Uuid.optional(), locale: Locale.optional() }).strict(), output: RedeemOutcome },
  releaseVoucher: { input: z.object({ voucherUuid: Uuid, reason: ReleaseReason }).strict(), output: ReleaseOutcome },
  /** The visit is over (idle, done): every lock this kiosk holds is given back. */
  endVisit: { input: NoInput, output: z.null() },

  /**
   * A portal session of `mode`, which must be one of the kiosk's modes; without one, the session
   * that tags a native visit (the first native mode, else the first mode).
   */
  startPortalSession: {
    input: z
      .object({ mode: KioskMode.optional(), contactUuid: Uuid.optional(), amountInCents: z.number().int().min(1).max(100_000_00).optional() })
      .strict(),
    output: PortalSessionView,
  },
  getPortalSession: { input: z.object({ uuid: Uuid }).strict(), output: PortalSessionView },

  /** Speech (speech mode, the idle warning): main says it with espeak-ng, stopping whatever it was saying. */
  speak: { input: Utterance, output: z.null() },
  /** The shopper acted: silence at once. */
  stopSpeech: { input: NoInput, output: z.null() },
  /** The visit is over: silence, and the store's volume again; then `farewell`, said so (#33 §10). */
  endSpeech: { input: z.object({ farewell: Utterance.optional() }).strict(), output: z.null() },
  /** The volume and speed keys, a step at a time; the store's volume and the normal speed come back when the visit ends. */
  changeSpeech: { input: z.object({ setting: SpeechSetting, step: z.union([z.literal(-1), z.literal(1)]) }).strict(), output: SpeechLevel },
} as const;

/** The PIN pad's calls: open while the console is locked, since they are how it gets unlocked. */
export const consoleSessionCalls = {
  managerStatus: { input: NoInput, output: ManagerStatus },
  unlockManager: { input: z.object({ pin: Pin }).strict(), output: ManagerStatus },
  /** A fresh kiosk's wizard opens with the setup code only (#34 §2): nobody takes over a kiosk by touch alone. */
  startSetup: { input: z.object({ code: SetupCode }).strict(), output: ManagerStatus },
  lockManager: { input: NoInput, output: z.null() },
} as const;

/**
 * The store manager's console. Main refuses each of these unless this bridge connection's console
 * session is open (the PIN entered within CONSOLE_TIMEOUT_MS, or a fresh kiosk's setup session):
 * the dispatcher checks it for every call in this table, so a new one is guarded by being here.
 */
export const managerCalls = {
  /** The console's port picker: USB identities and serial numbers are the store's, not a shopper's. */
  listSerialPorts: { input: NoInput, output: SerialPortListing },
  setManagerPin: { input: z.object({ pin: Pin }).strict(), output: ManagerStatus },
  getConsoleSettings: { input: NoInput, output: ConsoleSettings },
  updateSettings: { input: z.object({ values: z.record(z.string().max(100), z.unknown()) }).strict(), output: ConsoleSettings },
  /** Write-only: the value goes to the keychain and never comes back. */
  /** A blank value is refused here: the keychain keeps secrets trimmed, and nothing is left of one. */
  setSecret: { input: z.object({ name: SecretName, value: z.string().max(4096).refine((value) => value.trim() !== '', 'a secret cannot be blank') }).strict(), output: SecretsStatus },
  removeSecret: { input: z.object({ name: SecretName }).strict(), output: SecretsStatus },
  /** The wizard's check, with the values typed (not yet stored) or, when left out, the stored ones. */
  testConnection: {
    input: z
      .object({
        baseUrl: z.url({ protocol: /^https?$/ }).max(500),
        apiKey: z.string().min(1).max(4096).optional(),
        shopUuid: Uuid.optional(),
      })
      .strict(),
    output: ConnectionCheck,
  },
  /**
   * A fresh kiosk's setup card, as scanned (#34 §2): main opens it with the kiosk's setup code, checks
   * the connection it holds and, when it works, saves it (address, shop, key) as the wizard's Save
   * would. The key never reaches the screen: the check, and the settings once saved (null: not saved).
   */
  connectWithSetupCard: {
    input: z.object({ card: z.string().max(SETUP_CARD_MAX_CHARS) }).strict(),
    output: z.object({ check: ConnectionCheck, settings: ConsoleSettings.nullable() }),
  },
  exportSettings: { input: NoInput, output: ExportedFile },
  importSettings: { input: z.object({ json: z.string().max(SETTINGS_FILE_MAX_CHARS) }).strict(), output: ConsoleSettings },
  adminListVouchers: { input: ListVouchersQuery.extend({ limit: z.number().int().min(1).max(500) }), output: AdminVoucherPage },
  adminFindVoucher: { input: z.object({ code: ScanValue }).strict(), output: AdminVoucher },
  adminCreateVoucher: { input: CreateVoucherBody, output: AdminVoucher },
  adminUpdateVoucher: { input: UpdateVoucherBody.extend({ voucherUuid: Uuid }), output: AdminVoucher },
  adminListRewardAttributes: { input: NoInput, output: z.array(AdminRewardAttribute) },
  adminCreateRewardAttribute: { input: CreateRewardAttributeBody, output: AdminRewardAttribute },
  getDiagnostics: { input: NoInput, output: Diagnostics },
  /** A diagnostics bundle (settings, status, redacted log) for support; never secrets. */
  exportDiagnostics: { input: NoInput, output: ExportedFile },
  restartKiosk: { input: NoInput, output: z.null() },
  quitKiosk: { input: NoInput, output: z.null() },
  /** Reports (docs/reports.md): the open shift's totals so far; changes nothing. */
  getXReport: { input: NoInput, output: ShiftReport },
  listZReports: { input: NoInput, output: z.array(ZSummary) },
  getZReport: { input: z.object({ zNumber: z.number().int().positive() }).strict(), output: ShiftReport },
  /** Closes the shift with its Z and opens the next; refused (busy) while a voucher lock is held. */
  closeShift: { input: NoInput, output: ShiftReport },
  /** Every event of the vouchers with this code, oldest first: the answer to "the kiosk took my voucher". */
  findRedemptions: { input: z.object({ code: ScanValue }).strict(), output: z.array(RedemptionEventView) },
  /** The open shift's X with its check against the platform, made now (a Z's is made after it by itself). */
  reconcileOpenShift: { input: NoInput, output: ShiftReport },
  /** The receipt printer (#31 §3): a test slip, printed now with the saved settings; whether it came out, and why not. */
  printTestSlip: { input: NoInput, output: z.object({ printed: z.boolean(), reason: z.string().nullable() }) },
  /** The last slip as the paper shows it (SVG), printed or not; null before the first. */
  getLastSlip: { input: NoInput, output: z.object({ svg: z.string().nullable() }) },
  /** The slips of a proof code, oldest first: the first, and each reprint (whether it came out, and why not). */
  listSlips: { input: z.object({ proofCode: z.string().regex(/^\d{10}$/) }).strict(), output: z.array(SlipRecord) },
  /** The slip of a proof code printed again, marked DUPLICATE and on record beside the first. */
  reprintSlip: { input: z.object({ proofCode: z.string().regex(/^\d{10}$/) }).strict(), output: SlipRecord },
  /**
   * Ledger rows as CSV, handed out like every export: a shift's (the open shift when none is
   * named), or the business days fromDay to toDay.
   */
  exportLedgerCsv: {
    input: z.union([
      z.object({ shift: z.number().int().positive().optional() }).strict(),
      z
        .object({ fromDay: BusinessDay, toDay: BusinessDay })
        .strict()
        .refine(({ fromDay, toDay }) => fromDay <= toDay, 'the first day is not after the last'),
    ]),
    output: ExportedFile,
  },
} as const;

export const calls = { ...shopperCalls, ...consoleSessionCalls, ...managerCalls } as const;

export const events = {
  scan: Scan,
  settingsChanged: KioskSettingsView,
  serviceStatus: ServiceStatus,
  scannerStatus: ScannerStatus,
  /** A deep link (`loyalty-kiosk://portal-session/<uuid>`) asks to reopen a session. */
  openPortalSession: z.object({ uuid: z.uuid() }),
  /** The kiosk fell asleep (quiet hours) or woke. */
  sleep: SleepState,
  /** A headset was plugged in: speech mode starts (#33 §4). */
  headsetPlugged: z.object({}).strict(),
} as const;

export type CallName = keyof typeof calls;
export type ShopperCallName = keyof typeof shopperCalls;
export type ManagerCallName = keyof typeof managerCalls;
export type EventName = keyof typeof events;
export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>;
export type CallOutput<N extends CallName> = z.output<(typeof calls)[N]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** Error codes the renderer can act on; the message is for logs and staff, never a stack. */
export const BridgeErrorCode = z.enum([
  'unknown_call',
  'invalid_payload',
  'forbidden',
  'unavailable',
  'network',
  'timeout',
  'auth',
  'not_found',
  'conflict',
  'validation',
  'maintenance',
  'server',
  /** The platform asked the kiosk to slow down (429): busy for a moment, not out of service. */
  'rate_limited',
  'bad_response',
  /** The same action is already under way (a second tap on confirm): harmless, the first one answers. */
  'busy',
  /** Too many typed codes were unknown: typing is paused for TYPED_PAUSE_SECONDS (against guessing). */
  'too_many_attempts',
  /** The platform returned a portal page on an origin this kiosk may not frame (portal.allowedOrigins). */
  'portal_refused',
  /** A redeem asked for a voucher this kiosk holds no lock on: nothing was sent; lock it first. */
  'not_locked',
  /** The kiosk's redemption ledger cannot be written: no redemption starts until it can (looking still works). */
  'ledger_unavailable',
  /** The receipt printer cannot print and `printer.required` is on: no redemption starts until it can. */
  'printer_unavailable',
  'internal',
]);
export type BridgeErrorCode = z.infer<typeof BridgeErrorCode>;

export const BridgeError = z.object({
  code: BridgeErrorCode,
  message: z.string(),
  /** Platform error code (e.g. 80005 already redeemed), when the platform gave one. */
  platformCode: z.number().int().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

type CallFunction<N extends CallName> = Record<never, never> extends CallInput<N>
  ? (input?: CallInput<N>) => Promise<BridgeResult<CallOutput<N>>>
  : (input: CallInput<N>) => Promise<BridgeResult<CallOutput<N>>>;

/** The one object the renderer sees as `window.kiosk`. */
export type KioskApi = { [N in CallName]: CallFunction<N> } & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

/** A call that needs this connection's unlocked console. */
export function isManagerCall(name: CallName): name is ManagerCallName {
  return Object.hasOwn(managerCalls, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The single IPC channel pair both hosts carry. */
export const INVOKE_CHANNEL = 'kiosk:invoke';
export const EVENT_CHANNEL = 'kiosk:event';
