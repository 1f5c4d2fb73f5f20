/** The parts of a key event that decide whether it could take a shopper out of the kiosk. */
export interface KeyInput {
  type: string;
  key: string;
  control?: boolean;
  meta?: boolean;
  alt?: boolean;
  shift?: boolean;
}

/**
 * Shortcuts that reload, close, leave full screen, zoom or open devtools. Blocked outside
 * development so that a keyboard left at a kiosk cannot escape it.
 */
export function isKioskEscapeShortcut(input: KeyInput): boolean {
  if (input.type !== 'keyDown') return false;
  const key = input.key.toLowerCase();
  const command = Boolean(input.control || input.meta);
  if (['f5', 'f11', 'f12', 'browserback', 'browserforward', 'browserrefresh'].includes(key)) return true;
  if (input.alt && ['f4', 'arrowleft', 'arrowright', 'home'].includes(key)) return true;
  if (command && ['r', 'w', 'q', 'n', 't', 'p', 's', 'o', 'u', 'f4', '+', '=', '-', '0'].includes(key)) return true;
  if (command && input.shift && ['i', 'j', 'c', 'delete'].includes(key)) return true;
  return Boolean(input.meta && input.control && key === 'f');
}
