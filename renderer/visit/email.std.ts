import { Email } from '../../common/input-rules.std.ts';

/** Checked before any call, as main checks it (stray spaces around it are dropped before sending). */
export function looksLikeEmail(text: string): boolean {
  return Email.safeParse(text.trim()).success;
}
