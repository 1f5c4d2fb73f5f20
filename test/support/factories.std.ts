import type { LogFields, Logger, LogLevel } from '../../main/logging/logger.std.ts';
import { ShopperView, VoucherView } from '../../common/shopper-views.std.ts';
import { defaultConfig } from '../../common/config-schema.std.ts';
import { KioskSettingsView } from '../../common/contract.std.ts';
import { AdminVoucher, type ManagerStatus } from '../../common/manager-views.std.ts';
import { settingsView } from '../../main/config/settings-view.std.ts';
import { AttemptFacts } from '../../main/ledger/ledger-events.std.ts';
import { ShiftReport } from '../../common/report-views.std.ts';
import type { SlipFacts } from '../../main/printer/slip.std.ts';

/** One line a recordingLogger kept: the child's fields merged under the line's own. */
export interface LogLine {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** A Logger that keeps every line, its children's too, in `lines` (pass one to share it). */
export function recordingLogger(lines: LogLine[] = [], context: LogFields = {}): { logger: Logger; lines: LogLine[] } {
  const at = (level: LogLevel) => (message: string, fields: LogFields = {}) => void lines.push({ level, message, fields: { ...context, ...fields } });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => recordingLogger(lines, { ...context, ...fields }).logger,
  };
  return { logger, lines };
}

/** The kept lines as text, `level message {fields}` one a line: to show a log never holds a value anywhere. */
export function logText(lines: LogLine[]): string {
  return lines.map(({ level, message, fields }) => `${level} ${message} ${JSON.stringify(fields)}`).join('\n');
}

/** The kept lines logged as `event`, in order. */
export function linesOf<Line extends { fields?: LogFields }>(lines: Line[], event: string): Line[] {
  return lines.filter(({ fields }) => fields?.event === event);
}

/** Whether a line was logged as `event` with every one of `fields` equal (a test matches the event, never the wording). */
export function hasEvent(lines: Array<{ fields?: LogFields }>, event: string, fields: LogFields = {}): boolean {
  return linesOf(lines, event).some((line) => Object.entries(fields).every(([name, value]) => Object.is(line.fields?.[name], value)));
}

/** A shopper as the screen gets one: known by contact, e-mail masked. */
export function shopperView(overrides: Partial<ShopperView> = {}): ShopperView {
  return ShopperView.parse({ contactUuid: '6f1c2b4a-1d2e-4f3a-9b8c-7d6e5f4a3b2c', maskedEmail: 's•••@example.nl', ...overrides });
}

/** An active voucher, redeemable once, as the screen gets one; parsed, so a test never builds a shape main could not send. */
export function voucherView(overrides: Partial<VoucherView> = {}): VoucherView {
  return VoucherView.parse({
    uuid: '0b9e8d7c-6b5a-4f3e-8d2c-1b0a9f8e7d6c',
    code: 'SPRING-10',
    status: 'ACTIVE',
    name: 'Ten percent off',
    description: 'On anything in the store',
    media: null,
    activatesAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    redemptionsLeft: 1,
    totalRedemptions: 1,
    hasContact: true,
    contactUuid: shopperView().contactUuid,
    ...overrides,
  });
}

/** The settings the shopper screens get on a kiosk with the default config, as main builds them; parsed, like the others. */
export function kioskSettingsView(overrides: Partial<KioskSettingsView> = {}): KioskSettingsView {
  return KioskSettingsView.parse({ ...settingsView(defaultConfig()), ...overrides });
}

/** A voucher as the console's vouchers tab lists it, of a promotion [uuid, name] and a contact [uuid, e-mail] or none; parsed. */
/** An unlocked console with a PIN set, as main reports it. */
export function managerStatus(overrides: Partial<ManagerStatus> = {}): ManagerStatus {
  return { pinSet: true, setupBlocked: null, setupDemoOnly: false, platformAdmin: false, unlocked: true, lockedUntil: null, attemptsLeft: 5, ...overrides };
}

export function adminVoucher(code: string, promotion: [string, string], contact: [string, string] | null): AdminVoucher {
  return AdminVoucher.parse({
    uuid: `uuid-${code}`,
    code,
    status: 'ACTIVE',
    name: promotion[1],
    promotion: { uuid: promotion[0], name: promotion[1] },
    contact: contact && { uuid: contact[0], email: contact[1] },
    activationDate: '2030-01-01T00:00:00+00:00',
    expirationDate: null,
    redeemedAt: null,
    timesRedeemed: null,
    totalRedemptionsAllowed: null,
    attributes: {},
  });
}

/** One attempt's facts as the ledger records them, for a voucher `code` of a promotion. */
export function ledgerAttempt(code: string, overrides: Partial<AttemptFacts> = {}): AttemptFacts {
  return AttemptFacts.parse({
    attemptId: `attempt-${code}`,
    voucherUuid: `uuid-${code}`,
    voucherCode: code,
    voucherName: 'Free coffee',
    promotionName: 'Coffee week',
    contactUuid: shopperView().contactUuid,
    identifiedBy: 'card',
    ...overrides,
  });
}

/** A shift report as main answers it: an X of three coffees unless `overrides` say otherwise. */
export function shiftReport(overrides: Partial<ShiftReport> = {}): ShiftReport {
  return ShiftReport.parse({
    kind: 'x',
    shift: 2,
    zNumber: null,
    openedAt: '2026-11-27T03:00:00.000Z',
    closedAt: '2026-11-27T18:00:00.000Z',
    kioskId: 'store-1',
    shopUuid: null,
    redemptions: 3,
    byPromotion: [{ name: 'Coffee week', count: 3 }],
    byVoucher: [{ name: 'Free coffee', count: 3 }],
    releases: [{ name: 'cancel', count: 1 }],
    refusals: [],
    unsettled: { attempts: 0, redeemed: 0, released: 0, open: 0 },
    firstRedemptionAt: '2026-11-27T09:00:00.000Z',
    lastRedemptionAt: '2026-11-27T17:00:00.000Z',
    outOfServiceMinutes: 0,
    reconciliation: null,
    ...overrides,
  });
}

/** A redemption's slip as the tests print it: a Dutch coffee with a card, no manager lines. */
export function slipFacts(overrides: Partial<SlipFacts> = {}): SlipFacts {
  return {
    shopName: 'Café Zoë',
    reward: 'Gratis koffie',
    tillText: null,
    proofCode: '4821730695',
    at: '2026-11-28T10:00:00Z',
    kioskId: 'lobby-1',
    seq: 42,
    cardLast4: '0132',
    posBarcode: null,
    duplicate: false,
    logo: null,
    header: null,
    footer: null,
    locale: 'nl',
    ...overrides,
  };
}
