import type { Locale } from '../../../common/config-schema.std.ts';
import { messages as en, type ConsoleMessages } from './en/console.std.ts';
import { messages as nl } from './nl/console.std.ts';
import { messages as de } from './de/console.std.ts';
import { messages as fr } from './fr/console.std.ts';

/** The manager console’s texts in every language: loaded with the console (loadCatalogue), never in the shopper bundle. */
export const consoleMessages: Record<Locale, ConsoleMessages> = { en, nl, de, fr };
