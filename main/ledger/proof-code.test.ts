import { describe, expect, it } from 'vitest';
import { isProofCode, newProofCode, PROOF_CODE_LENGTH } from './proof-code.std.ts';

describe('the proof code (#31 §1)', () => {
  it("ends in the Damm check digit of its nine others (Damm's own example: 572 → 5724)", () => {
    const digits = [0, 0, 0, 0, 0, 0, 5, 7, 2];
    expect(newProofCode(() => digits.shift()!)).toBe('0000005724');
    expect(isProofCode('0000005724')).toBe(true);
  });

  it('catches every single mistyped digit and every swap of two neighbours', () => {
    const code = newProofCode();
    expect(code).toMatch(new RegExp(`^\\d{${PROOF_CODE_LENGTH}}$`));
    expect(isProofCode(code)).toBe(true);
    for (let at = 0; at < code.length; at++) {
      for (let digit = 0; digit <= 9; digit++) {
        const typo = code.slice(0, at) + String(digit) + code.slice(at + 1);
        if (typo !== code) expect(isProofCode(typo), typo).toBe(false);
      }
      const swapped = code.slice(0, at) + (code[at + 1] ?? '') + code[at] + code.slice(at + 2);
      if (at < code.length - 1 && swapped !== code) expect(isProofCode(swapped), swapped).toBe(false);
    }
  });

  it('is no counter: a thousand codes, all different, every digit in every place', () => {
    const codes = Array.from({ length: 1000 }, () => newProofCode());
    expect(new Set(codes).size).toBe(1000);
    for (let at = 0; at < PROOF_CODE_LENGTH - 1; at++) expect(new Set(codes.map((code) => code[at])).size).toBe(10);
  });

  it('refuses what is no proof code: short, long, letters, a voucher code', () => {
    for (const code of ['', '572', '00000057240', '000000572A', 'KOFFIE24', ' 0000005724']) expect(isProofCode(code), code).toBe(false);
  });
});
