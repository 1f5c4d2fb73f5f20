import type { ShiftReport } from '../../common/report-views.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { Ledger } from './ledger.node.ts';

/** A Z asked for while a voucher lock is held: the redemption on screen belongs to this shift. */
export class ShiftBusy extends Error {
  override readonly name = 'ShiftBusy';
  constructor() {
    super('a voucher lock is held: close the shift once the redemption on screen has ended');
  }
}

/**
 * A Z asked for by hand (the console, or kioskctl through the running kiosk): refused while a lock
 * is held, else the shift closed, its old closed shifts pruned, and who asked logged.
 */
export function closeShiftByHand(
  { ledger, locksHeld, logger }: { ledger: Pick<Ledger, 'closeShift' | 'prune'>; locksHeld: () => number; logger: Logger },
  by: 'console' | 'kioskctl',
): ShiftReport {
  if (locksHeld() > 0) throw new ShiftBusy();
  const z = ledger.closeShift();
  ledger.prune();
  logger.info(`shift closed by ${by}`, { event: `ledger.z_by_${by}`, zNumber: z.zNumber });
  return z;
}
