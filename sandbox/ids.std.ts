/** Random identifiers for sandbox records; Web Crypto, so this runs anywhere. */
export function randomUuid(): string {
  return crypto.randomUUID();
}

/** `bytes` random bytes as lowercase hex: release keys and credentials must be unguessable. */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// 32 symbols without look-alikes (0/O, 1/I): a byte modulo 32 stays unbiased.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A short voucher code a shopper can read out loud. */
export function randomVoucherCode(length = 8): string {
  const buffer = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(buffer, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
}
