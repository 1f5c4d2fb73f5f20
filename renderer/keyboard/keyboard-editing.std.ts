import type { Key } from './layouts.std.ts';

/** A field's text and selection (a caret when start equals end), plus the keyboard's shift. */
export interface EditState {
  readonly value: string;
  readonly selectionStart: number;
  readonly selectionEnd: number;
  readonly shift: boolean;
}

const isLetter = (text: string): boolean => text.length === 1 && text.toLowerCase() !== text.toUpperCase();

/** What a text key types (and shows) with shift on: a capital for a letter, anything else as is. */
export function shifted(text: string, shift: boolean): string {
  return shift && isLetter(text) ? text.toUpperCase() : text;
}

/**
 * Applies one key press the way a field would: text replaces the selection, backspace deletes
 * the selection or the character before the caret, shift latches for one letter. `maxLength` is
 * the field's `maxlength` (UTF-16 units, as the browser counts); text that does not fit in whole
 * is not typed, since half of `.com` is never what the shopper meant. Done changes nothing.
 */
export function applyKey(state: EditState, key: Key, maxLength?: number): EditState {
  const { value, shift } = state;
  const start = clamp(Math.min(state.selectionStart, state.selectionEnd), value.length);
  const end = clamp(Math.max(state.selectionStart, state.selectionEnd), value.length);
  const replace = (from: number, to: number, text: string, nextShift = shift): EditState => ({
    value: value.slice(0, from) + text + value.slice(to),
    selectionStart: from + text.length,
    selectionEnd: from + text.length,
    shift: nextShift,
  });
  const insert = (text: string, nextShift = shift): EditState =>
    maxLength !== undefined && value.length - (end - start) + text.length > maxLength ? state : replace(start, end, text, nextShift);

  if (key.kind === 'switch') return state;
  if (key.kind === 'text') return insert(shifted(key.text, shift), shift && !isLetter(key.text));
  switch (key.action) {
    case 'shift':
      return { ...state, shift: !shift };
    case 'space':
      return insert(' ');
    case 'clear':
      return replace(0, value.length, '');
    case 'backspace':
      if (start !== end) return replace(start, end, '');
      return start === 0 ? state : replace(start - charLengthBefore(value, start), start, '');
    case 'done':
      return state;
  }
}

/** The `inputType` a browser reports for the same edit, for `input` listeners that look at it. */
export function inputTypeOf(key: Key): 'insertText' | 'deleteContentBackward' | 'deleteContent' {
  if (key.kind === 'action' && key.action === 'backspace') return 'deleteContentBackward';
  if (key.kind === 'action' && key.action === 'clear') return 'deleteContent';
  return 'insertText';
}

const clamp = (index: number, length: number): number => Math.min(Math.max(index, 0), length);

/** 2 when the caret follows a surrogate pair (an emoji typed on a physical keyboard), else 1. */
function charLengthBefore(value: string, caret: number): number {
  const low = value.charCodeAt(caret - 1);
  const high = value.charCodeAt(caret - 2);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
}
