import { z } from 'zod';
import { phpMap } from './common.std.ts';

/** The platform's error answer (platform-notes.md). */
export const ErrorBody = z
  .looseObject({
    message: z.string(),
    code: z.number().int(),
    status_code: z.number().int(),
    // Laravel writes an empty PHP array as `[]`.
    errors: phpMap(z.array(z.string())).optional().describe('Messages by field, on validation failures'),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.output<typeof ErrorBody>;

/** What sort of failure a published code stands for, whatever HTTP status carries it. */
export type PlatformErrorCategory = 'validation' | 'not_found' | 'conflict';

/** Published error codes a kiosk meets, by name. */
export const platformErrors = {
  invalidInput: { code: 1003, category: 'validation', meaning: 'invalid input (validation)' },
  shopNotFound: { code: 1008, category: 'not_found', meaning: 'shop not found' },
  contactNotFound: { code: 55031, category: 'not_found', meaning: 'contact not found' },
  contactIdentifierNotFound: {
    code: 60003,
    category: 'not_found',
    meaning: 'contact identifier (card / QR value) not found',
  },
  contactIdentifierInactive: { code: 60004, category: 'conflict', meaning: 'contact identifier inactive' },
  contactAlreadyExists: { code: 60005, category: 'conflict', meaning: 'contact already exists' },
  contactIdentifierAlreadyExists: { code: 60006, category: 'conflict', meaning: 'contact identifier already exists' },
  contactIdentifierAlreadyLinked: {
    code: 60014,
    category: 'conflict',
    meaning: 'contact identifier already linked to a contact',
  },
  promotionNotFound: { code: 80002, category: 'not_found', meaning: 'promotion not found' },
  voucherCodeAlreadyExists: { code: 80003, category: 'conflict', meaning: 'voucher code already exists' },
  voucherNotFound: { code: 80004, category: 'not_found', meaning: 'voucher not found' },
  voucherAlreadyRedeemed: { code: 80005, category: 'conflict', meaning: 'voucher already redeemed' },
  voucherExpired: { code: 80006, category: 'conflict', meaning: 'voucher expired' },
  voucherDeactivated: { code: 80012, category: 'conflict', meaning: 'voucher deactivated' },
  voucherInactive: { code: 80014, category: 'conflict', meaning: 'voucher inactive (not yet active)' },
  voucherAlreadyLocked: { code: 80017, category: 'conflict', meaning: 'voucher already locked' },
  notEnoughRedemptionsLeft: { code: 80019, category: 'conflict', meaning: 'not enough redemptions left' },
  promotionInactive: { code: 80020, category: 'conflict', meaning: 'promotion inactive' },
} as const satisfies Record<string, { code: number; category: PlatformErrorCategory; meaning: string }>;

export type PlatformErrorName = keyof typeof platformErrors;
export type PlatformError = (typeof platformErrors)[PlatformErrorName];
export type PlatformErrorCode = PlatformError['code'];

const byCode = new Map<number, PlatformError>(Object.values(platformErrors).map((error) => [error.code, error]));

/** The published error with this code, if any. */
export function platformErrorByCode(code: number): PlatformError | undefined {
  return byCode.get(code);
}
