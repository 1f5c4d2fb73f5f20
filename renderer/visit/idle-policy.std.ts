/**
 * The kiosk cannot see touches on the platform's hosted page (a frame of another origin), so a
 * shopper busy there gets at least this long before "are you still there?".
 */
export const HOSTED_PAGE_IDLE_SECONDS = 300;
/** "Are you still there?" gives at least this long to answer (WCAG 2.2.1 asks for 20 s). */
export const IDLE_WARNING_SECONDS = 20;

export interface IdleSituation {
  /** The shopper screen showing (Screen['name']). */
  screen: string;
  /** The shopper chose a language or speech: the next one starts with the store's. */
  personal: boolean;
  /** A voucher was just redeemed: the visit is as good as done. */
  afterRedemption: boolean;
  idleTimeoutSeconds: number;
  idleAfterRedeemSeconds: number;
  /** Tests run the kiosk's times faster (appState.timeFactor). */
  timeFactor: number;
}

/**
 * How long the idle guard waits, then warns, before the visit ends; null: no guard. None on an
 * untouched attract screen; none on the redeemed screen (its proof is shown at the till, untouched,
 * and it ends the visit by itself after idle.proofSeconds); none on the confirm screen, whose own
 * countdown gives the voucher back and returns to the voucher screen, where the guard starts
 * afresh: the two never run out together (#33 §6).
 */
export function idleWatch(situation: IdleSituation): { timeoutSeconds: number; warningSeconds: number } | null {
  const { screen, personal, afterRedemption, timeFactor } = situation;
  if ((screen === 'attract' && !personal) || screen === 'redeemed' || screen === 'confirm') return null;
  const configured = afterRedemption ? situation.idleAfterRedeemSeconds : situation.idleTimeoutSeconds;
  const seconds = screen === 'portal' ? Math.max(configured, HOSTED_PAGE_IDLE_SECONDS) : configured;
  return { timeoutSeconds: seconds * timeFactor, warningSeconds: IDLE_WARNING_SECONDS * timeFactor };
}
