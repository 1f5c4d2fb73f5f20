import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyKey, inputTypeOf, shifted, type EditState } from './keyboard-editing.std.ts';
import type { Key, KeyAction } from './layouts.std.ts';

const text = (value: string): Key => ({ kind: 'text', text: value });
const action = (name: KeyAction): Key => ({ kind: 'action', action: name });

/** `|` marks the caret, `[` and `]` a selection: 'ab|c' or 'a[bc]'. */
function field(marked: string, shift = false): EditState {
  const caret = marked.indexOf('|');
  if (caret >= 0) return { value: marked.replace('|', ''), selectionStart: caret, selectionEnd: caret, shift };
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  return { value: marked.replace('[', '').replace(']', ''), selectionStart: start, selectionEnd: end, shift };
}

/** Types `keys` one after another into `marked` and returns the result in the same notation. */
function type(marked: string, keys: Key[], maxLength?: number): string {
  const { value, selectionStart, selectionEnd } = keys.reduce((state, key) => applyKey(state, key, maxLength), field(marked));
  return selectionStart === selectionEnd
    ? value.slice(0, selectionStart) + '|' + value.slice(selectionStart)
    : `${value.slice(0, selectionStart)}[${value.slice(selectionStart, selectionEnd)}]${value.slice(selectionEnd)}`;
}

describe('typing text', () => {
  it('inserts at the caret and moves the caret after the text', () => {
    expect(type('|', [text('a'), text('b')])).toBe('ab|');
    expect(type('ac|', [text('x')])).toBe('acx|');
    expect(type('a|c', [text('b')])).toBe('ab|c');
    expect(type('|bc', [text('a')])).toBe('a|bc');
  });

  it('replaces the selection', () => {
    expect(type('a[bc]d', [text('x')])).toBe('ax|d');
    expect(type('[all]', [text('1')])).toBe('1|');
  });

  it('accepts a selection given backwards', () => {
    expect(applyKey({ value: 'abcd', selectionStart: 3, selectionEnd: 1, shift: false }, text('x'))).toMatchObject({
      value: 'axd',
      selectionStart: 2,
    });
  });

  it('clamps a selection that lies past the end of the value', () => {
    expect(applyKey({ value: 'ab', selectionStart: 9, selectionEnd: 9, shift: false }, text('c')).value).toBe('abc');
  });

  it('types several characters at once for .com and .nl', () => {
    expect(type('jan@example|', [text('.com')])).toBe('jan@example.com|');
    expect(type('jan@|', [text('voorbeeld'), text('.nl')])).toBe('jan@voorbeeld.nl|');
  });

  it('types a space', () => {
    expect(type('Jan|', [action('space'), text('d')])).toBe('Jan d|');
  });
});

describe('shift', () => {
  it('capitalises exactly one letter, then releases', () => {
    expect(type('|', [action('shift'), text('j'), text('a'), text('n')])).toBe('Jan|');
    expect(applyKey(field('|', true), text('j')).shift).toBe(false);
  });

  it('toggles off when pressed twice', () => {
    expect(type('|', [action('shift'), action('shift'), text('j')])).toBe('j|');
  });

  it('stays on across digits and punctuation until a letter is typed', () => {
    const afterDash = applyKey(field('|', true), text('-'));
    expect(afterDash).toMatchObject({ value: '-', shift: true });
    expect(applyKey(afterDash, text('l'))).toMatchObject({ value: '-L', shift: false });
    expect(applyKey(field('|', true), action('space')).shift).toBe(true);
  });

  it('capitalises accented letters too', () => {
    expect(shifted('é', true)).toBe('É');
    expect(shifted('1', true)).toBe('1');
    expect(shifted('.com', true)).toBe('.com');
    expect(shifted('a', false)).toBe('a');
  });
});

describe('backspace', () => {
  it('deletes the character before the caret', () => {
    expect(type('abc|', [action('backspace')])).toBe('ab|');
    expect(type('a|bc', [action('backspace')])).toBe('|bc');
  });

  it('does nothing at the start of the field', () => {
    const state = field('|abc');
    expect(applyKey(state, action('backspace'))).toBe(state);
  });

  it('deletes the selection only', () => {
    expect(type('a[bc]d', [action('backspace')])).toBe('a|d');
  });

  it('deletes a whole emoji, not half of it', () => {
    expect(type('hi😀|', [action('backspace')])).toBe('hi|');
  });

  it('keeps shift as it was', () => {
    expect(applyKey(field('ab|', true), action('backspace')).shift).toBe(true);
  });
});

describe('clear', () => {
  it('empties the field whatever the selection', () => {
    expect(type('12[34]', [action('clear')])).toBe('|');
    expect(type('1|234', [action('clear')])).toBe('|');
  });
});

describe('done', () => {
  it('leaves the state alone', () => {
    const state = field('a[b]c', true);
    expect(applyKey(state, action('done'))).toBe(state);
  });
});

describe('maxLength', () => {
  it('refuses text once the field is full, without moving the caret', () => {
    expect(type('1234|', [text('5')], 4)).toBe('1234|');
    expect(type('12|34', [text('5')], 4)).toBe('12|34');
  });

  it('counts the selection as room, since it is replaced', () => {
    expect(type('12[34]', [text('5')], 4)).toBe('125|');
  });

  it('types multi-character text only when all of it fits', () => {
    expect(type('jan@example|', [text('.com')], 13)).toBe('jan@example|');
    expect(type('jan@example|', [text('.com')], 15)).toBe('jan@example.com|');
  });

  it('keeps shift latched when the letter did not fit', () => {
    expect(applyKey(field('ab|', true), text('c'), 2).shift).toBe(true);
  });

  it('still allows deleting from an over-long value', () => {
    expect(type('12345|', [action('backspace')], 3)).toBe('1234|');
  });
});

describe('inputTypeOf', () => {
  it('names the edit as a browser would', () => {
    expect(inputTypeOf(text('a'))).toBe('insertText');
    expect(inputTypeOf(action('space'))).toBe('insertText');
    expect(inputTypeOf(action('backspace'))).toBe('deleteContentBackward');
    expect(inputTypeOf(action('clear'))).toBe('deleteContent');
  });
});

describe('any field, any key', () => {
  const state = fc
    .record({ value: fc.string({ maxLength: 12 }), a: fc.nat(14), b: fc.nat(14), shift: fc.boolean() })
    .map(({ value, a, b, shift }): EditState => ({ value, selectionStart: a, selectionEnd: b, shift }));
  const key = fc.oneof(
    fc.string({ minLength: 1, maxLength: 4 }).map(text),
    fc.constantFrom<KeyAction>('shift', 'backspace', 'space', 'clear', 'done').map(action),
  );

  it('an edit leaves a collapsed caret inside the value and never grows past maxLength', () => {
    fc.assert(
      fc.property(state, key, fc.nat(16), (before, pressed, maxLength) => {
        const after = applyKey(before, pressed, maxLength);
        if (after.value === before.value) return;
        expect(after.selectionStart).toBe(after.selectionEnd);
        expect(after.selectionStart).toBeLessThanOrEqual(after.value.length);
        expect(after.value.length).toBeLessThanOrEqual(Math.max(maxLength, before.value.length));
      }),
    );
  });

  it('keeps the text outside the selection', () => {
    fc.assert(
      fc.property(state, key, (before, pressed) => {
        const after = applyKey(before, pressed);
        const start = Math.min(before.selectionStart, before.selectionEnd, before.value.length);
        const end = Math.min(Math.max(before.selectionStart, before.selectionEnd), before.value.length);
        if (pressed.kind === 'text' || (pressed.kind === 'action' && pressed.action === 'space')) {
          expect(after.value.startsWith(before.value.slice(0, start))).toBe(true);
          expect(after.value.endsWith(before.value.slice(end))).toBe(true);
        }
      }),
    );
  });
});
