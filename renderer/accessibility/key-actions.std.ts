import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { Translate } from '../i18n/message-types.std.ts';

/** What a key asks of the kiosk (accessibility.keys.*): a keypad's keys or a keyboard's. */
export type KeyAction = keyof KioskConfig['accessibility']['keys'];
export type KeyMap = KioskConfig['accessibility']['keys'];

/** The action `key` (KeyboardEvent.key) is mapped to; null for a key of no action (typing, Tab). */
export function actionOf(key: string, keys: KeyMap): KeyAction | null {
  for (const [action, mapped] of Object.entries(keys) as Array<[KeyAction, readonly string[]]>) {
    if (mapped.includes(key)) return action;
  }
  return null;
}

/** Keys that move about a screen: the first one on the attract screen starts speech mode. */
export function isNavigationKey(key: string, keys: KeyMap): boolean {
  const action = actionOf(key, keys);
  return key === 'Tab' || action === 'next' || action === 'previous' || action === 'select';
}

/** The keys whose names speech says in the shopper's language (`key.*` messages); others as spokenKeyName has them. */
export const NAMED_KEYS = ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'Enter', 'Escape', 'AudioVolumeUp', 'AudioVolumeDown', 'PageUp', 'PageDown'] as const;
type NamedKey = (typeof NAMED_KEYS)[number];

/** A key's name as speech says it: a named key in the language of `t` (#33 §7), any other as spokenKeyName has it. */
export function keyNameIn(t: Translate, key: string): string {
  return (NAMED_KEYS as readonly string[]).includes(key) ? t(`key.${key as NamedKey}`) : spokenKeyName(key);
}

/** A key's name as its code spells it: `PageUp` as "Page Up", `F1` as it is. */
export function spokenKeyName(key: string): string {
  return key.replace(/^Audio/, '').replace(/([a-z])([A-Z0-9])/g, '$1 $2');
}
