/**
 * A redemption's proof code (#31 §1): what the shopper shows at the till, printed and on screen,
 * and what the console finds the redemption by. Ten digits, short enough to type: nine random
 * ones (never a counter, so one slip tells nothing of the next) and a Damm check digit, which
 * catches every mistyped digit and every swap of two neighbours.
 */

export const PROOF_CODE_LENGTH = 10;

/** The Damm algorithm's quasigroup of order 10 (a weakly totally anti-symmetric one, as Damm published it). */
const DAMM = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
] as const;

/** The Damm interim digit of `digits`: 0 for a string that ends in its own check digit. */
function damm(digits: string): number {
  let interim = 0;
  for (const digit of digits) interim = DAMM[interim]![Number(digit)]!;
  return interim;
}

/** A random decimal digit, without the bias a plain modulo of 2^32 would have. */
function randomDigit(): number {
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0]! >= 4_294_967_290);
  return word[0]! % 10;
}

/** A fresh proof code; `digit` is for tests that need a known one. */
export function newProofCode(digit: () => number = randomDigit): string {
  const body = Array.from({ length: PROOF_CODE_LENGTH - 1 }, () => String(digit())).join('');
  return body + String(damm(body));
}

/** Whether `code` is shaped like a proof code: ten digits whose check digit holds. */
export function isProofCode(code: string): boolean {
  return new RegExp(`^\\d{${PROOF_CODE_LENGTH}}$`).test(code) && damm(code) === 0;
}
