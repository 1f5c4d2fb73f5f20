import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { Pin, PIN_RULE } from '../../common/input-rules.std.ts';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

// Interactive-login strength (about 50 ms here); a 4–8 digit PIN needs the lockout as well.
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$<salt>$<hash>` (base64url): the only form a PIN is ever stored in. */
export async function hashPin(pin: string): Promise<string> {
  if (!Pin.safeParse(pin).success) throw new Error(PIN_RULE);
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(pin, salt, KEY_LENGTH, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(pin, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
