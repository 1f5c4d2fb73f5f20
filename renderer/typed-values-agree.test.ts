import { describe, expect, it } from 'vitest';
import { calls } from '../common/contract.std.ts';
import { Pin } from '../common/input-rules.std.ts';
import { hashPin } from '../main/manager/pin-hash.node.ts';
import { looksLikeEmail } from './visit/email.std.ts';

/** The screens never offer main a value it refuses, nor refuse one it takes: edge cases, both sides. */

const PINS = ['1234', '0000', '12345678', '123', '123456789', '', '12a4', ' 1234', '1234 ', '1234\n', '-1234', '12.4', '１２３４', '١٢٣٤'];

describe('the PIN: the console (PinPad, PinSetter) and main agree', () => {
  it.each(PINS)('%j', async (pin) => {
    const consoleOffers = Pin.safeParse(pin).success;
    expect(calls.unlockManager.input.safeParse({ pin }).success).toBe(consoleOffers);
    expect(calls.setManagerPin.input.safeParse({ pin }).success).toBe(consoleOffers);
    expect(await hashPin(pin).then(() => true, () => false)).toBe(consoleOffers);
  });
});

const EMAILS = [
  'sanne.devries@example.nl',
  '  j@example.com ',
  'a+tag@example.nl',
  "o'neil@example.ie",
  'A@EXAMPLE.NL',
  'a@sub.example.co.uk',
  'ü@example.de',
  'sanne@exämple.de',
  'a..b@example.nl',
  '.a@example.nl',
  'a.@example.nl',
  'a@-example.nl',
  'a@example',
  'a@example.c',
  'a@example.123',
  'a@example.nl.',
  'a@[127.0.0.1]',
  '"a b"@example.nl',
  'a@b@c.nl',
  'san ne@example.nl',
  '',
  `${'a'.repeat(243)}@example.nl`,
  `${'a'.repeat(244)}@example.nl`,
];

describe('an e-mail: the shopper screens and main agree', () => {
  it.each(EMAILS)('%j', (typed) => {
    // The screens send what was typed without the spaces around it.
    const email = typed.trim();
    const screenOffers = looksLikeEmail(typed);
    expect(calls.identifyByEmail.input.safeParse({ email }).success).toBe(screenOffers);
    expect(calls.registerShopper.input.safeParse({ email, consent: true }).success).toBe(screenOffers);
  });
});
