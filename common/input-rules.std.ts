import { z } from 'zod';

/**
 * What main accepts of what people type: the manager's PIN and a shopper's e-mail. The screens
 * check with these same schemas, so they never offer main a value it refuses.
 */

export const PIN_MAX_DIGITS = 8;
export const PIN_RULE = `a PIN is 4 to ${PIN_MAX_DIGITS} digits`;
export const Pin = z.string().regex(new RegExp(`^\\d{4,${PIN_MAX_DIGITS}}$`), PIN_RULE);

/** A fresh kiosk's setup code: printed by `kioskctl setup-code` and at the host's start, for IT or the installer only. */
export const SETUP_CODE_DIGITS = 8;
/** A setup card's text starts so (main/manager/setup-card.node.ts): the wizard sends such a scan to main. */
export const SETUP_CARD_PREFIX = 'LKSETUP1.';
/** Far above any setup card: an address, a uuid and a key, sealed. */
export const SETUP_CARD_MAX_CHARS = 4_000;
export const SetupCode = z.string().regex(new RegExp(`^\\d{${SETUP_CODE_DIGITS}}$`), `the setup code is ${SETUP_CODE_DIGITS} digits: kioskctl setup-code prints it`);

/** The platform has the final word on an address; this is what is worth asking it about. */
export const Email = z.email().max(254);
