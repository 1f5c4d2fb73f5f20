import { z } from 'zod';
import { CreatePortalSessionBody } from '../api/portal-sessions.std.ts';

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

/** Portal-session settings: the create body's own fields, so defaults and allowed values cannot drift from the API. */
export const SessionSettings = CreatePortalSessionBody.omit({ shop_uuid: true, contact_uuid: true });
export type SessionSettings = z.infer<typeof SessionSettings>;

export const LOCALES = ['en', 'nl', 'de', 'fr'] as const;
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .refine((value) => !value.endsWith('/'), 'leave out the trailing slash');

export const KioskConfig = z
  .object({
    schemaVersion: z.literal(1).default(1),
    api: z
      .object({
        /** null: demo mode against the embedded sandbox. */
        baseUrl: httpUrl.nullable().default(null),
        shopUuid: z.uuid().nullable().default(null),
      })
      .prefault({}),
    kiosk: z.object({ mode: KioskMode.default('regular') }).prefault({}),
    session: SessionSettings.prefault({}),
    scanner: z
      .object({
        connection: z.enum(['keyboard', 'serial']).default('keyboard'),
        serial: z
          .object({
            path: z.string().min(1).nullable().default(null),
            baudRate: z.number().int().min(300).max(921_600).default(9600),
            dataBits: z.union([z.literal(7), z.literal(8)]).default(8),
            parity: z.enum(['none', 'even', 'odd']).default('none'),
            stopBits: z.union([z.literal(1), z.literal(2)]).default(1),
            /** `idle`: the scanner sends no terminator; a pause ends the line. */
            terminator: z.enum(['CR', 'LF', 'CRLF', 'idle']).default('CR'),
          })
          .prefault({}),
      })
      .prefault({}),
    idle: z.object({ timeoutSeconds: z.number().int().min(10).max(3600).default(60) }).prefault({}),
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
        /** Accent colour; the default passes WCAG AA against white text. */
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #1f5fbf')
          .default('#1f5fbf'),
      })
      .prefault({}),
    manager: z.object({ pinHash: z.string().min(1).nullable().default(null) }).prefault({}),
  })
  .strict();
export type KioskConfig = z.infer<typeof KioskConfig>;

export const CONFIG_SCHEMA_VERSION = 1;

export function defaultConfig(): KioskConfig {
  return KioskConfig.parse({});
}
