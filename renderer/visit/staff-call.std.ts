import type { ProblemKey } from './problem-messages.std.ts';

/** The screens' way to call staff (#33 §11), given by the app (Svelte context) to wherever a problem shows. */
export const STAFF_CALL = Symbol('staff call');

export interface StaffCaller {
  /** The problem staff were called about in this visit, or null. */
  readonly staffCalledFor: ProblemKey | null;
  callStaff(problem: ProblemKey): Promise<void>;
}
