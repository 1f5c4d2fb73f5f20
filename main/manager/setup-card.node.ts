import crypto from 'node:crypto';
import { z } from 'zod';
import { SETUP_CARD_MAX_CHARS, SETUP_CARD_PREFIX, SetupCode } from '../../common/input-rules.std.ts';

/**
 * A setup card (#34 §2): a fresh kiosk's platform address, shop and API key in one scannable text,
 * sealed with that kiosk's setup code, so the manager connects it by scanning instead of typing
 * some 120 characters. Only the kiosk whose code sealed it can open it: the card alone, photographed
 * or lost, gives nobody the key. `kioskctl setup-qr` makes one.
 *
 * `LKSETUP1.` then base64url of salt (16) | iv (12) | tag (16) | AES-256-GCM ciphertext, the key
 * derived from the code with scrypt (a code is 8 digits: the cost makes each guess dear).
 */
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export const SetupCardContent = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }).max(500),
  shopUuid: z.uuid().nullable(),
  apiKey: z.string().trim().min(1).max(4096),
});
export type SetupCardContent = z.infer<typeof SetupCardContent>;

export class SetupCardError extends Error {}

export function isSetupCard(text: string): boolean {
  return text.startsWith(SETUP_CARD_PREFIX);
}

export function sealSetupCard(content: SetupCardContent, code: string): string {
  const salt = crypto.randomBytes(SALT_BYTES);
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFor(SetupCode.parse(code), salt), iv);
  cipher.setAAD(Buffer.from(SETUP_CARD_PREFIX));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(SetupCardContent.parse(content))), cipher.final()]);
  return SETUP_CARD_PREFIX + Buffer.concat([salt, iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The card's content, opened with this kiosk's setup code; a SetupCardError that says why in words. */
export function openSetupCard(card: string, code: string): SetupCardContent {
  const text = card.trim();
  if (!isSetupCard(text) || text.length > SETUP_CARD_MAX_CHARS) throw new SetupCardError('this is not a setup card');
  const bytes = Buffer.from(text.slice(SETUP_CARD_PREFIX.length), 'base64url');
  if (bytes.length <= SALT_BYTES + IV_BYTES + TAG_BYTES) throw new SetupCardError('this setup card is incomplete: scan it again');
  const salt = bytes.subarray(0, SALT_BYTES);
  const iv = bytes.subarray(SALT_BYTES, SALT_BYTES + IV_BYTES);
  const tag = bytes.subarray(SALT_BYTES + IV_BYTES, SALT_BYTES + IV_BYTES + TAG_BYTES);
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFor(code, salt), iv);
  decipher.setAAD(Buffer.from(SETUP_CARD_PREFIX));
  decipher.setAuthTag(tag);
  let opened: string;
  try {
    opened = Buffer.concat([decipher.update(bytes.subarray(SALT_BYTES + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    // A card sealed with another kiosk's code, or one damaged: GCM tells neither apart.
    throw new SetupCardError("this setup card was made for another kiosk's setup code, or is damaged");
  }
  const content = SetupCardContent.safeParse(JSON.parse(opened));
  if (!content.success) throw new SetupCardError('this setup card holds no platform address and key this kiosk can use');
  return content.data;
}

function keyFor(code: string, salt: Buffer): Buffer {
  return crypto.scryptSync(code, salt, 32, SCRYPT);
}
