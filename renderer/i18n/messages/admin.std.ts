import type { Locale } from '../../../common/config-schema.std.ts';
import { messages as en, type AdminMessages } from './en/admin.std.ts';
import { messages as nl } from './nl/admin.std.ts';
import { messages as de } from './de/admin.std.ts';
import { messages as fr } from './fr/admin.std.ts';

/** The voucher and reward-attribute tabs’ texts in every language: loaded with the console (loadCatalogue), never in the shopper bundle. */
export const adminMessages: Record<Locale, AdminMessages> = { en, nl, de, fr };
