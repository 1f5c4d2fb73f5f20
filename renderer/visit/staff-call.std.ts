import type { ProblemKey } from './problem-messages.std.ts';

/** What a shopper may call staff about: a problem on their screen, the kiosk out of service, or no way in. */
export type StaffReason = ProblemKey | 'error.unavailable' | 'attract.scanner_lost.ask_staff';

/** Screens whose words tell the shopper to ask staff: there the kiosk offers to call them (#33 §11). */
const ASKS_FOR_STAFF: ReadonlySet<StaffReason> = new Set([
  'problem.card.inactive',
  'problem.card.setup',
  'problem.redeem.unavailable',
  'problem.printer.unavailable',
  'problem.portal.refused',
  'error.unavailable',
  'attract.scanner_lost.ask_staff',
]);

export const asksForStaff = (reason: StaffReason) => ASKS_FOR_STAFF.has(reason);

/** The screens' way to call staff (#33 §11), given by the app (Svelte context) to wherever a problem shows. */
export const STAFF_CALL = Symbol('staff call');

export interface StaffCaller {
  /** What staff were called about in this visit, or null. */
  readonly staffCalledFor: StaffReason | null;
  callStaff(reason: StaffReason): Promise<void>;
}
