import { describe, expect, it } from 'vitest';
import { layoutColumns, layouts, type Key, type Layout } from './layouts.std.ts';

const texts = (layout: Layout): string[] => layout.flat().flatMap((key) => (key.kind === 'text' ? [key.text] : []));
const actions = (layout: Layout): string[] => layout.flat().flatMap((key) => (key.kind === 'action' ? [key.action] : []));

describe('layouts', () => {
  it('e-mail has the address symbols and domain keys, and no shift', () => {
    expect(texts(layouts.email)).toEqual(expect.arrayContaining(['@', '.', '.com', '.nl', '-', '_']));
    expect(actions(layouts.email)).toEqual(['backspace', 'done']);
  });

  it('text has shift, space and backspace', () => {
    expect(actions(layouts.text)).toEqual(expect.arrayContaining(['shift', 'space', 'backspace', 'done']));
  });

  it('url has the symbols of addresses and keys, shift for capitals, and https:// and http:// in one key each', () => {
    expect(texts(layouts.url)).toEqual(expect.arrayContaining([':', '/', '.', '-', '_', 'https://', 'http://']));
    expect(actions(layouts.url)).toEqual(expect.arrayContaining(['shift', 'backspace', 'done']));
  });

  it('every letter and digit appears exactly once in the letter layouts', () => {
    for (const layout of [layouts.email, layouts.text, layouts.url]) {
      const alphanumerics = texts(layout).filter((text) => /^[a-z0-9]$/.test(text));
      expect(alphanumerics.toSorted()).toEqual([...'0123456789abcdefghijklmnopqrstuvwxyz']);
    }
  });

  it('numeric is a 3-wide pad of digits, clear, backspace and done', () => {
    expect(texts(layouts.numeric).toSorted()).toEqual([...'0123456789']);
    expect(actions(layouts.numeric).toSorted()).toEqual(['backspace', 'clear', 'done']);
    expect(layoutColumns(layouts.numeric)).toBe(3);
  });

  it('code is capitals and digits, each once, ten keys wide, with a switch to a digit pad and back', () => {
    const alphanumerics = texts(layouts.code).filter((text) => /^[A-Z0-9]$/.test(text));
    expect(alphanumerics.toSorted()).toEqual([...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ']);
    expect(layoutColumns(layouts.code)).toBe(10);
    const switches = (layout: Layout) => layout.flat().flatMap((key) => (key.kind === 'switch' ? [key.to] : []));
    expect(switches(layouts.code)).toEqual(['code-digits']);
    expect(switches(layouts['code-digits'])).toEqual(['code']);
    expect(texts(layouts['code-digits']).toSorted()).toEqual([...'0123456789']);
    expect(layoutColumns(layouts['code-digits'])).toBe(3);
  });

  it('the letter layouts are ten keys wide', () => {
    expect(layoutColumns(layouts.email)).toBe(10);
    expect(layoutColumns(layouts.text)).toBe(10);
    expect(layoutColumns(layouts.url)).toBe(10);
  });

  it('symbols a screen reader would skip have a spoken name', () => {
    const unnamed = Object.values(layouts)
      .flatMap((layout) => layout.flat())
      .filter((key): key is Extract<Key, { kind: 'text' }> => key.kind === 'text' && /^[^\p{L}\p{N}]$/u.test(key.text))
      .filter((key) => !key.name);
    expect(unnamed).toEqual([]);
  });
});
