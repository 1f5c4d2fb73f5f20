import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it, vi } from 'vitest';
import { LOCALES, type Locale } from '../../common/config-schema.std.ts';
import { mainMessages } from '../../common/main-messages.std.ts';
import { i18n } from './i18n.svelte';
import type { MessageArgs, MessageKey } from './message-types.std.ts';
import { adminMessages } from './messages/admin.std.ts';
import { consoleMessages } from './messages/console.std.ts';
import { shopperMessages } from './messages/shopper.std.ts';

type Area = Record<Locale, Readonly<Record<string, string>>>;
/** The screens' areas, and main's own phrases (the speech's stand-in for private data). */
const AREAS: Record<string, Area> = { shopper: shopperMessages, console: consoleMessages, admin: adminMessages, main: mainMessages };

/**
 * What a message asks of its caller, as sorted lines: each argument with its kind, and for a
 * select its options (a plural's categories differ between languages, so only `other` is required).
 */
function signature(elements: MessageFormatElement[]): string[] {
  const lines = new Set<string>();
  const walk = (nodes: MessageFormatElement[]) => {
    for (const node of nodes) {
      if (node.type === TYPE.argument || node.type === TYPE.number || node.type === TYPE.date || node.type === TYPE.time) lines.add(`${node.value}: ${TYPE[node.type]}`);
      if (node.type === TYPE.select) lines.add(`${node.value}: select ${Object.keys(node.options).sort().join('|')}`);
      if (node.type === TYPE.plural) lines.add(`${node.value}: plural${'other' in node.options ? '' : ' without other'}`);
      if (node.type === TYPE.select || node.type === TYPE.plural) for (const option of Object.values(node.options)) walk(option.value);
      if (node.type === TYPE.tag) walk(node.children);
    }
  };
  walk(elements);
  return [...lines].sort();
}

describe('message catalogues', () => {
  it('loads the console’s areas only when asked: the shopper’s messages are there from the start', async () => {
    // A fresh i18n: the one this file imported is shared with files that loaded the console's areas.
    vi.resetModules();
    const { i18n: fresh } = await import('./i18n.svelte');
    expect(fresh.has('attract.title')).toBe(true);
    expect(fresh.has('console.pin.wrong')).toBe(false);
    expect(() => fresh.t('console.pin.wrong', { attempts: 2 })).toThrow(/catalogue/);
    await Promise.all([fresh.loadCatalogue('console'), fresh.loadCatalogue('admin')]);
    expect(fresh.t('console.pin.wrong', { attempts: 2 })).toBe('Wrong PIN. 2 more tries before the PIN pad locks.');
    expect(fresh.t('pager.next')).toBe('Next');
  });

  it.each(Object.entries(AREAS))('has every %s key in every language, none empty', (_, area) => {
    const keys = Object.keys(area.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(area[locale]).sort(), locale).toEqual(keys);
      for (const key of keys) expect(area[locale][key]!.trim(), `${locale} ${key}`).not.toBe('');
    }
  });

  it.each(Object.entries(AREAS))('gives every %s message the same arguments and plurals as English', (_, area) => {
    for (const [key, english] of Object.entries(area.en)) {
      const expected = signature(parse(english));
      for (const locale of LOCALES) expect(signature(parse(area[locale][key]!)), `${locale} ${key}`).toEqual(expected);
    }
  });

  it('keeps each key in one area, so the one t() never has to guess', () => {
    const keys = Object.values(AREAS).flatMap((area) => Object.keys(area.en));
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('counts PIN attempts, seconds, lines and vouchers with the right plural in every language', async () => {
    await Promise.all([i18n.loadCatalogue('console'), i18n.loadCatalogue('admin')]);
    const cases: [Locale, number, string][] = [
      ['en', 1, 'Wrong PIN. 1 more try before the PIN pad locks.'],
      ['en', 4, 'Wrong PIN. 4 more tries before the PIN pad locks.'],
      ['nl', 1, 'Onjuiste pincode. Nog 1 poging voordat het toetsenblok op slot gaat.'],
      ['nl', 4, 'Onjuiste pincode. Nog 4 pogingen voordat het toetsenblok op slot gaat.'],
      ['de', 1, 'Falsche PIN. Noch 1 Versuch, bevor das Tastenfeld gesperrt wird.'],
      ['de', 4, 'Falsche PIN. Noch 4 Versuche, bevor das Tastenfeld gesperrt wird.'],
      ['fr', 1, 'Code PIN incorrect. Encore 1 essai avant le verrouillage du clavier.'],
      ['fr', 4, 'Code PIN incorrect. Encore 4 essais avant le verrouillage du clavier.'],
    ];
    for (const [locale, attempts, text] of cases) expect(said(locale, 'console.pin.wrong', { attempts })).toBe(text);
    expect(said('en', 'idle.countdown', { seconds: 1 })).toBe('Starting over in 1 second');
    expect(said('nl', 'confirm.countdown', { seconds: 5 })).toBe('Nog 5 seconden');
    expect(said('de', 'console.diagnostics.log_dropped', { count: 1, problem: 'EACCES' })).toBe('1 Zeile konnte nicht geschrieben werden (EACCES)');
    expect(said('fr', 'pager.where', { page: 1, last: 1, total: 1 })).toBe('Page 1 sur 1 · 1 bon');
    // French counts zero as one ("0 bon"); English does not.
    expect(said('fr', 'attributes.count', { count: 0 })).toBe('0 attribut de récompense');
    expect(said('en', 'attributes.count', { count: 0 })).toBe('0 reward attributes');
    i18n.use('en');
  });

  it('types each message’s arguments from its English text', async () => {
    await i18n.loadCatalogue('console');
    // @ts-expect-error: the PIN warning needs its count of attempts.
    expect(() => i18n.t('console.pin.wrong')).toThrow();
    // @ts-expect-error: and only that; a misspelt argument is caught before it reaches a screen.
    expect(() => i18n.t('console.pin.wrong', { attempt: 1 })).toThrow();
    // @ts-expect-error: a message without arguments takes none.
    expect(i18n.t('common.back', { attempts: 1 })).toBe('Back');
  });

  it('fills simple arguments as before, following a language switch', () => {
    expect(said('nl', 'home.greeting', { email: 'a@b.nl' })).toBe('Welkom terug, a@b.nl');
    expect(said('en', 'home.page', { page: 2, pages: 3 })).toBe('Page 2 of 3');
  });
});

/** `key` as the kiosk shows it in `locale`. */
function said<K extends MessageKey>(locale: Locale, key: K, ...values: MessageArgs<K>): string {
  i18n.use(locale);
  return i18n.t(key, ...values);
}
