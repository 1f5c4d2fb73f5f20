import fs from 'node:fs';
import { parseArgs } from 'node:util';
import receiptline from 'receiptline';
import { SetupCode } from '../../common/input-rules.std.ts';
import { sealSetupCard, SetupCardContent } from '../manager/setup-card.node.ts';

export const SETUP_QR_USAGE = 'setup-qr --url URL [--shop UUID] [--code CODE] [--svg FILE] (the API key on stdin)';

/** A refusal of the arguments or of what they hold: nothing was made. */
export class SetupQrRefusal extends Error {}

/**
 * `kioskctl setup-qr`: a setup card for a fresh kiosk (#34 §2), sealed with its setup code: the one
 * `--code` gives (a kiosk elsewhere, whose code the installer has), else this data folder's kiosk's.
 * Prints the card's text; `--svg FILE` writes its QR code as an image to print or show on a screen.
 * The manager scans it on the wizard's connect step: nothing to type.
 */
export function setupQr(args: string[], apiKey: string, localCode: () => string, stdout: (text: string) => void): void {
  const { values } = readArgs(args);
  const code = values.code ?? localCode();
  const checkedCode = SetupCode.safeParse(code);
  if (!checkedCode.success) throw new SetupQrRefusal(checkedCode.error.issues[0]!.message);
  const content = SetupCardContent.safeParse({ baseUrl: values.url, shopUuid: values.shop ?? null, apiKey });
  if (!content.success) throw new SetupQrRefusal(content.error.issues.map((issue) => `${issue.path.join('.') || 'card'}: ${issue.message}`).join('; '));
  const card = sealSetupCard(content.data, code);
  // A card holds base64url and a dot only: nothing receiptline's markup reads as its own. The blank
  // lines around it are the quiet zone a scanner needs.
  if (values.svg) fs.writeFileSync(values.svg, receiptline.transform(`\n{code:${card}; option:qrcode,6,m}\n\n`, { command: 'svg', cpl: 48 }), { mode: 0o600 });
  stdout(`${card}\n`);
}

function readArgs(args: string[]) {
  try {
    const parsed = parseArgs({ args, options: { url: { type: 'string' }, shop: { type: 'string' }, code: { type: 'string' }, svg: { type: 'string' } }, strict: true });
    if (!parsed.values.url) throw new SetupQrRefusal(`expected ${SETUP_QR_USAGE}`);
    return parsed as typeof parsed & { values: { url: string } };
  } catch (error) {
    if (error instanceof SetupQrRefusal) throw error;
    // parseArgs' own words echo the argument, which may be the key typed in the wrong place.
    throw new SetupQrRefusal(`an unknown option, or a word where none belongs (the API key goes on stdin); expected ${SETUP_QR_USAGE}`);
  }
}
