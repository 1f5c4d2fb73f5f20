import { z } from 'zod';
import { BRAND_MIN_CONTRAST, contrastWithWhite } from './brand-contrast.std.ts';
import { CreatePortalSessionBody, CreateRedeemGiftcardsPortalSessionBody } from '../api/portal-sessions.std.ts';
import { LocalTime, LocalTimeRange } from './local-time.std.ts';
import { pngSize } from './png-image.std.ts';
import { UpdateChannel } from './update-state.std.ts';

/**
 * The one config schema. Every key other issues rely on lives here, with its default and its
 * allowed values; `kioskctl config`, the settings screen and start-up validation all use it.
 */
export const KIOSK_MODES = [
  'regular',
  'credit-reception',
  'redeem-giftcards',
  'top-up-giftcards',
  'pay-prepaid',
  'top-up-prepaid',
  'vouchers',
] as const;
export const KioskMode = z.enum(KIOSK_MODES);
export type KioskMode = z.infer<typeof KioskMode>;

/** Modes the kiosk serves on its own screens; the others continue on the session's hosted page. */
export const NATIVE_MODES: ReadonlySet<KioskMode> = new Set(['regular', 'vouchers']);

/** The kiosk's modes, in the order its screens offer them: at least one, each once. */
export const KioskModes = z
  .array(KioskMode)
  .min(1)
  .refine((modes) => new Set(modes).size === modes.length, 'each mode at most once');

/**
 * The session type that tags a native visit: the first native mode in the list. Null when the kiosk
 * has none, and so serves only hosted pages.
 */
export function visitMode(modes: readonly KioskMode[]): KioskMode | null {
  return modes.find((mode) => NATIVE_MODES.has(mode)) ?? null;
}

/**
 * Portal-session settings: the create bodies' own fields, so defaults and allowed values cannot drift
 * from the API. `allow_multiple_giftcards` is sent only in redeem-giftcards mode.
 */
export const SessionSettings = CreatePortalSessionBody.omit({ shop_uuid: true, contact_uuid: true }).extend({
  allow_multiple_giftcards: CreateRedeemGiftcardsPortalSessionBody.shape.allow_multiple_giftcards,
});
export type SessionSettings = z.infer<typeof SessionSettings>;

export const LOCALES = ['en', 'nl', 'de', 'fr'] as const;
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

/**
 * Barcode formats the camera can read. The kiosk reads only those in `scanner.camera.formats`:
 * every format more costs decode time on every frame (zxing-wasm tries each one).
 */
export const CAMERA_FORMATS = ['qr', 'code128', 'ean13', 'ean8', 'code39', 'datamatrix'] as const;
export const CameraFormat = z.enum(CAMERA_FORMATS);
export type CameraFormat = z.infer<typeof CameraFormat>;

/** What loyalty cards and vouchers carry: a QR code, Code 128, EAN-13. */
export const DEFAULT_CAMERA_FORMATS: readonly CameraFormat[] = ['qr', 'code128', 'ean13'];

/**
 * Where a scanning device sits, seen from the shopper facing the screen: said with the screen's
 * instruction to scan, so a shopper who cannot see it can find it (#33 §12).
 */
export const ScanPlacement = z.enum(['unstated', 'above', 'below', 'left', 'right']);
export type ScanPlacement = z.infer<typeof ScanPlacement>;

/** Finds a USB-CDC scanner again after a replug renumbers its path (ttyACM0 → ttyACM1). */
export const UsbIdentity = z.object({
  /** Hex as `SerialPort.list()` reports it, e.g. `05e0`; compared case-insensitively. */
  vendorId: z.string().regex(/^[0-9a-fA-F]{4}$/, 'four hex digits, like 05e0'),
  productId: z.string().regex(/^[0-9a-fA-F]{4}$/, 'four hex digits, like 1200'),
  /** Optional (null or left out): many scanners share one serial number or have none. */
  serialNumber: z.string().min(1).nullish(),
});
export type UsbIdentity = z.output<typeof UsbIdentity>;

/**
 * `scanner.serial`: the one schema of a serial hand scanner's settings. The scanner itself runs on
 * what main/scanner/serial-scanner-settings.std.ts derives from it.
 */
export const SerialScannerConfig = z.object({
  path: z.string().min(1).nullable().default(null),
  baudRate: z.number().int().min(300).max(921_600).default(9600),
  dataBits: z.union([z.literal(7), z.literal(8)]).default(8),
  parity: z.enum(['none', 'even', 'odd']).default('none'),
  stopBits: z.union([z.literal(1), z.literal(2)]).default(1),
  /** `idle`: the scanner sends no terminator; a pause of `idleGapMs` ends the line. */
  terminator: z.enum(['CR', 'LF', 'CRLF', 'idle']).default('CR'),
  idleGapMs: z.number().int().min(5).max(2000).default(50),
  /**
   * The scanner's USB identity, so it is found again when it comes back at another path
   * (USB-CDC devices often do after a replug). Null: found by path only.
   */
  usb: UsbIdentity.nullable().default(null),
});

/** A line or two the manager sets for the screen or the slip: printable text, no control characters. */
const slipText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\u0000-\u0009\u000b-\u001f\u007f]*$/, 'plain text (line breaks allowed)')
    .nullable()
    .default(null);

/** The ESC/POS command sets the slip is laid out for (receiptline's names); `generic` for any other make. */
export const PRINTER_MODELS = ['epson', 'citizen', 'sii', 'fit', 'generic'] as const;
/** Single-byte code pages with the accents of the kiosk's languages; cp858 and cp1252 also have €. */
export const PRINTER_CODE_PAGES = ['cp858', 'cp1252', 'cp437', 'cp852', 'cp860', 'cp863', 'cp865'] as const;

/** Dots across the printable width of each paper (8 dots a millimetre; 48 and 32 characters of 12 dots). */
export const PAPER_DOTS: Readonly<Record<58 | 80, number>> = { 58: 384, 80: 576 };
/** A logo's greatest height in dots (5 cm): the slip stays a slip. */
export const LOGO_MAX_HEIGHT = 400;

/** The shopper screens' logo at most this size in pixels: it heads the screen, it does not fill it. */
export const SCREEN_LOGO_MAX = { width: 720, height: 240 } as const;

/**
 * The shop's logo on the shopper screens, in place of its name: a PNG in base64, in colour (the
 * console makes one from any image, no larger than SCREEN_LOGO_MAX). Its alternative text is the name.
 */
const screenLogo = z
  .string()
  .max(200_000, 'a logo of at most 150 KB: the console makes one from any image')
  .refine((value) => pngSize(value) !== null, 'a PNG image in base64')
  .refine((value) => {
    const size = pngSize(value);
    return !!size && size.width <= SCREEN_LOGO_MAX.width && size.height <= SCREEN_LOGO_MAX.height;
  }, `a logo at most ${SCREEN_LOGO_MAX.width}x${SCREEN_LOGO_MAX.height} pixels`)
  .nullable()
  .default(null);

/**
 * The shop's logo at the top of the slip: a PNG in base64, black on white as it prints (the
 * console converts a chosen image so). Its width is checked against the paper's below.
 */
const slipLogo = z
  .string()
  .max(65_536, 'a logo of at most 48 KB: the console makes one from any image')
  .refine((value) => pngSize(value) !== null, 'a PNG image in base64')
  .refine((value) => (pngSize(value)?.height ?? 0) <= LOGO_MAX_HEIGHT, `a logo at most ${LOGO_MAX_HEIGHT} dots high`)
  .nullable()
  .default(null);

/**
 * `printer`: the receipt printer the proof of a redemption is printed on (README "At the till").
 * `preview` prints nothing: each slip's preview is kept in the data folder for the console.
 */
export const PrinterConfig = z.object({
  kind: z.enum(['none', 'preview', 'serial', 'usb', 'network']).default('none'),
  /** The serial port (`/dev/ttyUSB0`) or the USB printer-class device (`/dev/usb/lp0`). */
  path: z.string().min(1).max(200).nullable().default(null),
  baudRate: z.number().int().min(1200).max(921_600).default(19_200),
  /** A network printer's address; its raw port is 9100 on nearly every make. */
  host: z.string().min(1).max(253).regex(/^[A-Za-z0-9.:[\]-]+$/, 'a host name or IP address').nullable().default(null),
  port: z.number().int().min(1).max(65_535).default(9100),
  model: z.enum(PRINTER_MODELS).default('epson'),
  paperWidthMm: z.union([z.literal(58), z.literal(80)]).default(80),
  codePage: z.enum(PRINTER_CODE_PAGES).default('cp858'),
  /**
   * The number this printer selects `codePage` by (ESC t n), when its make numbers code pages
   * differently from `model` (Custom, Nippon Primex: see the printer's manual). Null: the model's.
   */
  codePageNumber: z.number().int().min(0).max(255).nullable().default(null),
  logo: slipLogo,
  header: slipText(200),
  footer: slipText(200),
  /** The voucher attribute (or reward attribute) holding a barcode the till rings the reward up by, e.g. `product_barcode`. */
  posBarcodeAttribute: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'an attribute name').nullable().default(null),
  /** true: a voucher is not redeemed while the printer cannot print; false: the proof is then shown on screen only. */
  required: z.boolean().default(false),
}).refine((printer) => printer.logo === null || (pngSize(printer.logo)?.width ?? 0) <= PAPER_DOTS[printer.paperWidthMm], {
  message: 'the logo is wider than this paper prints (576 dots on 80 mm, 384 on 58 mm)',
  path: ['logo'],
});
export type PrinterConfig = z.output<typeof PrinterConfig>;

/** Hosts that are this computer: plain http is allowed only to them (a local sandbox or proxy). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Demo mode: no platform address, so the kiosk runs against its embedded sandbox. */
export function isDemoConfig(config: Pick<KioskConfig, 'api'>): boolean {
  return config.api.baseUrl === null;
}

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * An address on `scheme` (`https`, `mqtts`) or, only on this computer, on its plain form: what
 * travels there (credentials, commands, installers) is never in clear over a network. zod runs the
 * refinements even after the url check failed: an unparsable value is left to that check.
 */
function secureUrl(scheme: 'https' | 'mqtts') {
  const plain = scheme.slice(0, -1);
  return z.url({ protocol: new RegExp(`^${plain}s?$`) }).refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.protocol === `${scheme}:` || isLoopbackUrl(url);
  }, `use ${scheme}; plain ${plain} is allowed only to this computer (localhost)`);
}

/**
 * A PIN as the kiosk stores it (main/manager/pin-hash.node.ts): `scrypt$N$r$p$<salt>$<hash>`, a
 * 16-byte salt and a 32-byte hash in base64url, with costs in the range a kiosk can check. Anything
 * else (a hand-made string, a cost that would exhaust memory at every unlock) is refused wherever
 * it comes from.
 */
const pinHash = z
  .string()
  .regex(/^scrypt\$(16384|32768|65536|131072)\$([1-9]|1[0-6])\$[1-4]\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/, 'a PIN hash as the kiosk writes it (kioskctl pin set)');

/** The platform's address: credentials travel with every request. */
const apiBaseUrl = secureUrl('https').refine((value) => !value.endsWith('/'), 'leave out the trailing slash');

/** The fleet broker's address: the broker password travels on connect, and commands arrive on it. */
const mqttUrl = secureUrl('mqtts');
/** The same rule for an operator's `kioskctl fleet --broker`. */
export const FleetBrokerUrl = mqttUrl;

/** The update feed (electron-builder's `latest*.yml`): what is installed comes from it. */
const feedUrl = secureUrl('https');

/** A web origin the kiosk may frame (`https://portal.example`): scheme, host and port, no path. */
const frameOrigin = secureUrl('https').refine(
  (value) => !URL.canParse(value) || new URL(value).origin === value,
  'an origin only, like https://portal.example (no path, no trailing slash)',
);

/** One weekday's quiet hours; null: that day has none. */
const quietRange = LocalTimeRange.nullable().default(null);

/** MQTT topic levels: no wildcards, no separators, nothing empty. */
const topicLevels = z.string().min(1).max(120).regex(/^[^#+\u0000]+$/, 'no # or + in a topic');
export const topicLevel = z.string().min(1).max(64).regex(/^[^/#+\u0000]+$/, 'one topic level: no /, # or +');
/** kioskctl's marker goes under this level (`<prefix>/.kioskctl/…`), so no kiosk may be named so. */
export const KIOSKCTL_LEVEL = '.kioskctl';
/** `all` and `group` name the fleet-wide and group command topics beside the kiosks' own. */
export const FLEET_RESERVED_LEVELS = ['all', 'group', KIOSKCTL_LEVEL];
export const kioskIdLevel = topicLevel.refine(
  (id) => !FLEET_RESERVED_LEVELS.includes(id),
  'all and group are kept for fleet-wide and group commands, .kioskctl for kioskctl',
);

/**
 * The keys of one accessibility action. Named keys only (a single character is typing, and a
 * keyboard-wedge scanner types): `F1`, `ArrowDown`, `Escape`, `AudioVolumeUp`.
 */
const keyList = (defaults: readonly string[]) =>
  z
    .array(z.string().regex(/^[A-Z][A-Za-z0-9]{1,30}$/, 'a named key, like F1 or ArrowDown'))
    .max(8)
    .default([...defaults]);

export const KioskConfig = z
  .object({
    schemaVersion: z.literal(2).default(2),
    api: z
      .object({
        /** null: demo mode against the embedded sandbox. */
        baseUrl: apiBaseUrl.nullable().default(null),
        shopUuid: z.uuid().nullable().default(null),
      })
      .prefault({}),
    kiosk: z.object({ modes: KioskModes.default(['regular']) }).prefault({}),
    portal: z
      .object({
        /**
         * Origins the platform's hosted pages may be framed from, besides the API's own. Empty: the
         * origins the platform itself returns for this shop's portal sessions.
         */
        allowedOrigins: z.array(frameOrigin).max(20).default([]),
      })
      .prefault({}),
    session: SessionSettings.prefault({}),
    scanner: z
      .object({
        connection: z.enum(['keyboard', 'serial']).default('keyboard'),
        /** Where the hand scanner is. */
        placement: ScanPlacement.default('unstated'),
        serial: SerialScannerConfig.prefault({}),
        wedge: z
          .object({
            /** Keys averaging this far apart or closer are a scanner; people type 80 ms apart and slower. */
            maxAverageIntervalMs: z.number().int().min(5).max(60).default(30),
          })
          .prefault({}),
        camera: z
          .object({
            formats: z
              .array(CameraFormat)
              .min(1)
              .refine((formats) => new Set(formats).size === formats.length, 'each format once')
              .default([...DEFAULT_CAMERA_FORMATS]),
            /** Where the camera is. */
            placement: ScanPlacement.default('unstated'),
          })
          .prefault({}),
      })
      .prefault({}),
    registration: z
      .object({
        /** The programme terms a shopper agrees to on joining, readable on the kiosk (plain text; null: none shown). */
        termsText: z.string().trim().min(1).max(20_000).nullable().default(null),
      })
      .prefault({}),
    idle: z
      .object({
        timeoutSeconds: z.number().int().min(10).max(3600).default(60),
        /** The idle time on home after "Another voucher": a shopper who redeemed is nearly done. */
        afterRedeemSeconds: z.number().int().min(10).max(3600).default(20),
        /** How long the redeemed screen shows the proof for the till, unless the shopper taps Done first. */
        proofSeconds: z.number().int().min(10).max(600).default(45),
      })
      .prefault({}),
    accessibility: z
      .object({
        audio: z
          .object({
            /** The speech goes to a headset, not a speaker: private data (e-mail, credits, codes) is spoken. */
            private: z.boolean().default(false),
            /** espeak-ng's amplitude at the start of every visit; the shopper's volume keys move it by steps. */
            volume: z.number().int().min(10).max(200).default(100),
          })
          .prefault({}),
        /** In speech mode every timeout (the idle warning, the confirm countdown) is this many times longer. */
        speechTimeoutFactor: z.number().min(2).max(5).default(2),
        /** The mounting, for the low-reach mode: the screen's visible area starts this high above the floor. */
        screenBottomMm: z.number().int().min(0).max(2500).default(900),
        /** The visible area's height as mounted (null: a 32" panel's, 708 mm upright or 398 mm wide). */
        screenHeightMm: z.number().int().min(100).max(3000).nullable().default(null),
        /** The keys (KeyboardEvent.key) of each action: a kiosk keypad's code table, or a standard keyboard's. */
        keys: z
          .object({
            next: keyList(['ArrowDown', 'ArrowRight']),
            previous: keyList(['ArrowUp', 'ArrowLeft']),
            select: keyList(['Enter']),
            back: keyList(['Escape']),
            repeat: keyList(['F2']),
            volumeUp: keyList(['AudioVolumeUp', 'PageUp']),
            volumeDown: keyList(['AudioVolumeDown', 'PageDown']),
            slower: keyList(['F3']),
            faster: keyList(['F4']),
            help: keyList(['F1']),
          })
          .prefault({}),
      })
      .prefault({}),
    locale: z
      .object({
        default: Locale.default('en'),
        enabled: z.array(Locale).min(1).default(['en', 'nl']),
      })
      .refine((locale) => locale.enabled.includes(locale.default), {
        message: 'the default language must be one of the enabled languages',
        path: ['default'],
      })
      .prefault({}),
    brand: z
      .object({
        name: z.string().min(1).max(60).default('Loyalty Kiosk'),
        /** Accent colour: white text on it and it as text on white, so it must reach WCAG AA against white. */
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #1f5fbf')
          .refine((hex) => !/^#[0-9a-fA-F]{6}$/.test(hex) || contrastWithWhite(hex) >= BRAND_MIN_CONTRAST, {
            error: (issue) => `contrast ${contrastWithWhite(String(issue.input)).toFixed(1)}:1 with white; shopper screens need ${BRAND_MIN_CONTRAST}:1: choose a darker colour`,
          })
          .default('#1f5fbf'),
        logo: screenLogo,
      })
      .prefault({}),
    console: z
      .object({
        /**
         * The platform-admin tab (reward attributes: account-wide, one change reaches every store)
         * on this kiosk's console. Off on a kiosk; set by IT (kioskctl, provisioning, the fleet),
         * never from the console itself (IT_ONLY_KEYS).
         */
        platformAdmin: z.boolean().default(false),
      })
      .prefault({}),
    manager: z
      .object({
        pinHash: pinHash.nullable().default(null),
        /**
         * The PIN was set on a first run whose keychain could not be read (so whoever was at the
         * screen chose it): it opens the demo's console only, until an admin sets the PIN with
         * kioskctl pin set. The keychain's secrets are kept either way.
         */
        secretsUnchecked: z.boolean().default(false),
        /**
         * A first run's wizard changed the connection and has set no PIN yet. Should it end without
         * one (Cancel, timeout, a crash), the kiosk goes back to the demo, as it was before.
         */
        setupUnfinished: z.boolean().default(false),
        /**
         * A setup code IT chose, in the provisioning file: the fresh kiosk's wizard opens with it
         * instead of the random one in the data folder. Never exported, imported or sent by the fleet.
         */
        setupCode: z.string().regex(/^\d{8}$/, 'a setup code is 8 digits').nullable().default(null),
      })
      .prefault({}),
    fleet: z
      .object({
        /** null: the hostname (resolved in main; this schema runs where there is no os). */
        kioskId: kioskIdLevel.nullable().default(null),
        /**
         * Tags (store, region, pilot) from provisioning: the kiosk also takes commands sent to
         * `<prefix>/group/<group>/cmd/<name>` for each, and says them in its health.
         */
        groups: z
          .array(topicLevel)
          .max(16)
          .default([])
          .refine((groups) => new Set(groups).size === groups.length, 'each group once'),
        mqtt: z
          .object({
            /** null: no fleet broker, no heartbeat, no remote commands. */
            url: mqttUrl.nullable().default(null),
            username: z.string().min(1).nullable().default(null),
            topicPrefix: topicLevels.default('loyalty-kiosk'),
          })
          .prefault({}),
        /** Home Assistant MQTT discovery: one device per kiosk, its configs retained under `prefix`. */
        homeAssistant: z
          .object({
            discovery: z.boolean().default(false),
            prefix: topicLevels.default('homeassistant'),
          })
          .prefault({}),
      })
      .prefault({}),
    update: z
      .object({
        channel: UpdateChannel.default('stable'),
        /** null: updates are off. */
        feedUrl: feedUrl.nullable().default(null),
        /** Local time range in which a downloaded update may be installed (when idle). */
        window: LocalTimeRange.default('03:00-05:00'),
      })
      .prefault({}),
    schedule: z
      .object({
        /** Per weekday, a local time range in which the idle kiosk sleeps (null: none that day). */
        quietHours: z
          .object({
            sunday: quietRange,
            monday: quietRange,
            tuesday: quietRange,
            wednesday: quietRange,
            thursday: quietRange,
            friday: quietRange,
            saturday: quietRange,
          })
          .strict()
          .prefault({}),
        /** Local time of a daily restart, when idle with no lock held (null: none). */
        nightlyRestart: LocalTime.nullable().default(null),
        /** Local time at which the shift closes by itself with a Z report, when idle with no lock held (null: only by hand). */
        zReportAt: LocalTime.nullable().default(null),
      })
      .prefault({}),
    /** The redemption ledger (README "Reports"). */
    ledger: z
      .object({
        /** Closed shifts older than this many days lose their rows; their Z totals stay. */
        retentionDays: z.number().int().min(1).max(3650).default(400),
        /** Local time at which a business day starts: a redemption before it counts to the day before. */
        businessDayStartsAt: LocalTime.default('04:00'),
      })
      .prefault({}),
    /** The proof of a redemption the shopper takes to the till (README "At the till"). */
    proof: z
      .object({
        /** What the shopper and the cashier are told to do with it; null: "Show this at the till", in the shopper's language. */
        tillText: slipText(120),
      })
      .prefault({}),
    printer: PrinterConfig.prefault({}),
  })
  .strict();
export type KioskConfig = z.infer<typeof KioskConfig>;

export const CONFIG_SCHEMA_VERSION = 2;

/**
 * What a brand-new demo kiosk turns on besides the defaults, so a first run shows every flow.
 * Written to its settings like any other value: the console turns them off as usual.
 */
export const DEMO_DEFAULTS: Readonly<Record<string, unknown>> = {
  'session.enable_email_identification': true,
  'session.enable_registration': true,
  'session.enable_on_screen_keyboard': true,
  // No printer on a demo: each slip is kept as a preview the console shows.
  'printer.kind': 'preview',
  'registration.termsText':
    'Demo programme terms.\n\nMembership is free. You collect credits with every purchase and receive vouchers by e-mail. ' +
    'You can leave at any time by asking a member of staff; your account and its credits are then removed.\n\n' +
    'This is a demo kiosk: nothing you enter here is sent anywhere but its own sample data.',
};

export function defaultConfig(): KioskConfig {
  return KioskConfig.parse({});
}
