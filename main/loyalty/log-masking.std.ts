/**
 * What of a call's input may go into a log line: ids as they are, numbers and flags, and only the
 * tail of anything else (voucher codes, card values, release keys), so a log never holds a full
 * code or e-mail address.
 */

const KEPT_TAIL = 4;

/** `…1234`: the last four characters, and nothing at all of a value too short to hide them in. */
export function maskTail(value: string): string {
  return value.length >= 2 * KEPT_TAIL ? `…${value.slice(-KEPT_TAIL)}` : '…';
}

/** `j…@example.com` */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  return at > 0 ? `${value[0]}…${value.slice(at)}` : maskTail(value);
}

function maskValue(key: string, value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') return '[…]';
  if (key.endsWith('_uuid')) return value;
  return key === 'email' ? maskEmail(value) : maskTail(value);
}

export function maskedForLog(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, maskValue(key, value)]));
}
