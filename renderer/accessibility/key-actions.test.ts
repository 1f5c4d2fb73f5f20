import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../common/config-schema.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { actionOf, isNavigationKey, keyNameIn, spokenKeyName } from './key-actions.std.ts';

const keys = defaultConfig().accessibility.keys;

describe('accessibility keys', () => {
  it('maps a standard keyboard by default, and a keypad by its own code table', () => {
    expect(actionOf('ArrowDown', keys)).toBe('next');
    expect(actionOf('ArrowUp', keys)).toBe('previous');
    expect(actionOf('Escape', keys)).toBe('back');
    expect(actionOf('F2', keys)).toBe('repeat');
    expect(actionOf('AudioVolumeUp', keys)).toBe('volumeUp');
    expect(actionOf('F1', keys)).toBe('help');
    // Typing is no action: a keyboard-wedge scanner types too.
    expect(actionOf('a', keys)).toBeNull();
    const keypad = { ...keys, next: ['F7'], repeat: ['F9'] };
    expect(actionOf('F7', keypad)).toBe('next');
    expect(actionOf('ArrowDown', keypad)).toBeNull();
    expect(actionOf('F9', keypad)).toBe('repeat');
  });

  it('counts Tab and the move and select keys as navigation, not help or volume', () => {
    expect(['Tab', 'ArrowDown', 'ArrowLeft', 'Enter'].every((key) => isNavigationKey(key, keys))).toBe(true);
    expect(['F1', 'F2', 'PageUp', 'x', 'Shift'].some((key) => isNavigationKey(key, keys))).toBe(false);
  });

  it('says key names as words', () => {
    expect(['PageUp', 'ArrowDown', 'AudioVolumeUp', 'F1', 'Escape'].map(spokenKeyName)).toEqual(['Page Up', 'Arrow Down', 'Volume Up', 'F1', 'Escape']);
  });

  it('says the named keys in the shopper\'s language, and any other as its code spells it (#33 §7)', () => {
    const named = (locale: 'en' | 'nl' | 'de' | 'fr') => {
      i18n.use(locale);
      return ['ArrowDown', 'Enter', 'AudioVolumeUp', 'F2', 'MediaPlayPause'].map((key) => keyNameIn(i18n.t, key));
    };
    try {
      expect(named('en')).toEqual(['Arrow Down', 'Enter', 'Volume Up', 'F2', 'Media Play Pause']);
      expect(named('nl')).toEqual(['Pijl omlaag', 'Enter', 'Volume hoger', 'F2', 'Media Play Pause']);
      expect(named('de')).toEqual(['Pfeil nach unten', 'Eingabe', 'Lauter', 'F2', 'Media Play Pause']);
      expect(named('fr')).toEqual(['Flèche bas', 'Entrée', 'Volume plus', 'F2', 'Media Play Pause']);
    } finally {
      i18n.use('en');
    }
  });
});
