import type { Locale } from '../../../common/config-schema.std.ts';
import { messages as en, type ShopperMessages } from './en/shopper.std.ts';
import { messages as nl } from './nl/shopper.std.ts';
import { messages as de } from './de/shopper.std.ts';
import { messages as fr } from './fr/shopper.std.ts';

/** The shopper’s texts in every language: bundled with the shopper screens. */
export const shopperMessages: Record<Locale, ShopperMessages> = { en, nl, de, fr };
