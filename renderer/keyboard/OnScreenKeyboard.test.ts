import { tick } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { flushSync, mountInBody } from '../mount-for-test.dom.ts';
import type { LayoutName } from './layouts.std.ts';
import OnScreenKeyboard from './OnScreenKeyboard.svelte';

let field: HTMLInputElement;
let inputs: InputEvent[];
let unmountKeyboard: (() => void) | undefined;

beforeEach(() => {
  document.body.innerHTML = '<input id="field">';
  field = document.querySelector('input') as HTMLInputElement;
  inputs = [];
  field.addEventListener('input', (event) => inputs.push(event as InputEvent));
  field.focus();
});

afterEach(() => {
  unmountKeyboard?.();
  unmountKeyboard = undefined;
  document.body.replaceChildren();
  i18n.use('en');
  vi.restoreAllMocks();
});

function show(layout: LayoutName, onDone?: () => void): void {
  unmountKeyboard = mountInBody(OnScreenKeyboard, { target: field, layout, onDone });
}

const keys = (): HTMLButtonElement[] => [...document.querySelectorAll<HTMLButtonElement>('[data-testid="on-screen-keyboard"] button')];
const nameOf = (button: HTMLButtonElement): string => button.getAttribute('aria-label') ?? button.textContent?.trim() ?? '';

function key(name: string): HTMLButtonElement {
  const found = keys().find((button) => nameOf(button) === name);
  if (!found) throw new Error(`no key named ${name}; have ${keys().map(nameOf).join(' ')}`);
  return found;
}

/** A finger tap as Chromium reports it; returns the pointerdown so tests can see it was cancelled. */
function tap(name: string, pointerId = 1): PointerEvent {
  const button = key(name);
  const down = new PointerEvent('pointerdown', { bubbles: true, cancelable: true, pointerId, button: 0, pointerType: 'touch' });
  button.dispatchEvent(down);
  button.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, cancelable: true, pointerId, button: 0, pointerType: 'touch' }));
  flushSync();
  return down;
}

const typeKeys = (...names: string[]): void => names.forEach((name) => tap(name));

describe('typing into the target', () => {
  it('types at the end and fires an input event per key', () => {
    show('text');
    typeKeys('h', 'i');
    expect(field.value).toBe('hi');
    expect(inputs.map((event) => [event.inputType, event.data])).toEqual([
      ['insertText', 'h'],
      ['insertText', 'i'],
    ]);
    expect(inputs.every((event) => event.bubbles)).toBe(true);
  });

  it('types at the caret and replaces the selection', () => {
    show('text');
    field.value = 'ac';
    field.setSelectionRange(1, 1);
    tap('b');
    expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(['abc', 2, 2]);
    field.setSelectionRange(0, 2);
    tap('x');
    expect([field.value, field.selectionStart]).toEqual(['xc', 1]);
  });

  it('appends to a field without a selection API (type email)', () => {
    field.type = 'email';
    field.value = 'jan@example';
    show('email');
    tap('.com');
    expect(field.value).toBe('jan@example.com');
  });

  it('honours the field maxlength and fires nothing when full', () => {
    field.maxLength = 4;
    show('numeric');
    typeKeys('1', '2', '3', '4', '5');
    expect(field.value).toBe('1234');
    expect(inputs).toHaveLength(4);
  });

  it('does nothing without a target', () => {
    unmountKeyboard = mountInBody(OnScreenKeyboard, { target: null, layout: 'text' });
    expect(() => tap('a')).not.toThrow();
    expect(field.value).toBe('');
  });
});

describe('keys', () => {
  it('shift capitalises one letter, shows capitals while latched and releases', () => {
    show('text');
    tap('Shift');
    expect(key('Shift').getAttribute('aria-pressed')).toBe('true');
    expect(key('J')).toBeTruthy();
    typeKeys('J', 'a', 'n');
    expect(field.value).toBe('Jan');
    expect(key('Shift').getAttribute('aria-pressed')).toBe('false');
  });

  it('backspace deletes before the caret', () => {
    show('text');
    field.value = 'abc';
    field.setSelectionRange(3, 3);
    tap('Backspace');
    expect(field.value).toBe('ab');
    expect(inputs.at(-1)?.inputType).toBe('deleteContentBackward');
  });

  it('e-mail has @, ., .com, .nl, - and _', () => {
    show('email');
    typeKeys('j', 'underscore', 'a', 'hyphen', 'n', 'at', 'x', 'dot', 'y', '.nl');
    expect(field.value).toBe('j_a-n@x.y.nl');
    tap('.com');
    expect(field.value).toBe('j_a-n@x.y.nl.com');
  });

  it('space types a space', () => {
    show('text');
    typeKeys('a', 'Space', 'b');
    expect(field.value).toBe('a b');
  });

  it('done calls onDone and leaves the value alone', () => {
    const onDone = vi.fn();
    show('email', onDone);
    tap('a');
    tap('Done');
    expect(onDone).toHaveBeenCalledOnce();
    expect(field.value).toBe('a');
  });

  it('numeric: a PIN pad with clear, backspace and done', () => {
    const onDone = vi.fn();
    show('numeric', onDone);
    expect(keys().map(nameOf)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', 'Clear', '0', 'Backspace', 'Done']);
    typeKeys('1', '2', '3', 'Backspace', '9');
    expect(field.value).toBe('129');
    tap('Clear');
    expect(field.value).toBe('');
    expect(inputs.at(-1)?.inputType).toBe('deleteContent');
    tap('Done');
    expect(onDone).toHaveBeenCalledOnce();
  });
});

describe('pointer handling', () => {
  it('keeps focus in the field: presses cancel pointerdown and mousedown', () => {
    show('text');
    expect(tap('q').defaultPrevented).toBe(true);
    const mousedown = new MouseEvent('mousedown', { bubbles: true, cancelable: true });
    key('w').dispatchEvent(mousedown);
    expect(mousedown.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(field);
  });

  it('puts focus back in the field if something took it', () => {
    show('text');
    field.blur();
    tap('a');
    expect(document.activeElement).toBe(field);
  });

  it('types once per tap even though a click follows the pointerup', () => {
    show('text');
    tap('a');
    key('a').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    expect(field.value).toBe('a');
  });

  it('types on a click from the keyboard or assistive tech (detail 0)', () => {
    show('text');
    key('a').click();
    flushSync();
    expect(field.value).toBe('a');
  });

  it('types nothing when the touch is cancelled (a scroll or a palm)', () => {
    show('text');
    const button = key('a');
    button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true, pointerId: 3, button: 0 }));
    flushSync();
    expect(button.classList.contains('held')).toBe(true);
    button.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true, pointerId: 3 }));
    button.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, pointerId: 3 }));
    flushSync();
    expect(button.classList.contains('held')).toBe(false);
    expect(field.value).toBe('');
  });

  it('handles overlapping fingers on different keys', () => {
    show('text');
    const [a, b] = [key('a'), key('b')];
    const init = { bubbles: true, cancelable: true, button: 0 };
    a.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerId: 1 }));
    b.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerId: 2 }));
    a.dispatchEvent(new PointerEvent('pointerup', { ...init, pointerId: 1 }));
    b.dispatchEvent(new PointerEvent('pointerup', { ...init, pointerId: 2 }));
    expect(field.value).toBe('ab');
  });

  it('ignores secondary mouse buttons', () => {
    show('text');
    const button = key('a');
    button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true, pointerId: 1, button: 2 }));
    button.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, cancelable: true, pointerId: 1, button: 2 }));
    expect(field.value).toBe('');
  });
});

describe('accessibility and language', () => {
  it.each(['email', 'text', 'numeric'] as const)('every %s key is a button with a name, and one of them a tab stop', (layout) => {
    show(layout);
    expect(keys().length).toBeGreaterThan(10);
    for (const button of keys()) {
      expect(button.type).toBe('button');
      expect(nameOf(button)).not.toBe('');
    }
    expect(keys().filter((button) => button.tabIndex === 0)).toEqual([keys()[0]]);
    const icons = document.querySelectorAll('[data-testid="on-screen-keyboard"] svg');
    expect([...icons].every((icon) => icon.getAttribute('aria-hidden') === 'true')).toBe(true);
  });

  it('reads symbols as words', () => {
    show('email');
    expect(key('at').textContent?.trim()).toBe('@');
    expect(key('underscore').textContent?.trim()).toBe('_');
  });

  it('names the keys and the keyboard in the shopper’s language', () => {
    i18n.use('de');
    show('text');
    expect(document.querySelector('[data-testid="on-screen-keyboard"]')?.getAttribute('aria-label')).toBe('Bildschirmtastatur');
    expect(key('Rücktaste')).toBeTruthy();
    expect(key('Umschalttaste')).toBeTruthy();
    expect(key('Leerzeichen').textContent?.trim()).toBe('Leerzeichen');
    i18n.use('nl');
    flushSync();
    expect(key('Klaar')).toBeTruthy();
  });
});

describe('never covering the field', () => {
  const keyboardHeight = 400;

  beforeEach(() => {
    // jsdom does no layout: give the keyboard a height and the field a position.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'on-screen-keyboard' ? keyboardHeight : 0;
    });
    // Drawn at the bottom of the window (its top, not its height, is where the field must clear).
    const unplaced = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this.dataset.testid !== 'on-screen-keyboard') return unplaced.call(this);
      return new DOMRect(0, window.innerHeight - keyboardHeight, window.innerWidth, keyboardHeight);
    });
  });

  it('publishes its height as --osk-height while shown', () => {
    show('text');
    expect(document.documentElement.style.getPropertyValue('--osk-height')).toBe(`${keyboardHeight}px`);
    unmountKeyboard?.();
    unmountKeyboard = undefined;
    expect(document.documentElement.style.getPropertyValue('--osk-height')).toBe('');
  });

  it('keeps the next keyboard’s height when the previous one leaves after it arrives', () => {
    show('text');
    const first = unmountKeyboard;
    show('numeric');
    first?.();
    expect(document.documentElement.style.getPropertyValue('--osk-height')).toBe(`${keyboardHeight}px`);
  });

  it('scrolls the field’s scrolling container until the field is above the keyboard', () => {
    document.body.innerHTML = '<div class="screen" style="overflow-y: auto"><input id="low"></div>';
    const screen = document.querySelector<HTMLElement>('.screen')!;
    field = document.querySelector('input')!;
    let scrollTop = 0;
    Object.defineProperty(screen, 'scrollTop', { get: () => scrollTop, set: (value: number) => (scrollTop = value) });
    const fieldBottom = window.innerHeight - 100;
    // Its own method (a spy would replace the prototype's, the keyboard's too).
    Object.defineProperty(field, 'getBoundingClientRect', { value: () => new DOMRect(0, fieldBottom - 88 - scrollTop, 600, 88) });
    show('text');
    expect(field.getBoundingClientRect().bottom).toBeLessThanOrEqual(window.innerHeight - keyboardHeight);
    expect(scrollTop).toBe(keyboardHeight - 100 + 24);
  });
});

describe('by a keypad: a grid of keys the arrows move over (#33 §1)', () => {
  const focusedName = () => nameOf(document.activeElement as HTMLButtonElement);
  /** A key pressed where the focus is, as a keypad sends it; whether the keyboard used it. */
  function press(keyName: string): boolean {
    const event = new KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true });
    document.activeElement!.dispatchEvent(event);
    flushSync();
    return event.defaultPrevented;
  }
  /** Select on the focused key: a click with detail 0, as Enter or a keypad's select key gives. */
  function select(): void {
    (document.activeElement as HTMLButtonElement).click();
    flushSync();
  }

  it('puts one key in the Tab order, and moves it with the arrows, round each row', () => {
    show('code-digits');
    expect(keys().filter((button) => button.tabIndex === 0).map(nameOf)).toEqual(['1']);
    key('1').focus();
    expect(press('ArrowRight')).toBe(true);
    expect(focusedName()).toBe('2');
    press('ArrowDown');
    expect(focusedName()).toBe('5');
    press('ArrowRight');
    press('ArrowRight');
    expect(focusedName()).toBe('4');
    press('ArrowLeft');
    expect(focusedName()).toBe('6');
    // The key focused last is the one Tab comes back to.
    expect(keys().filter((button) => button.tabIndex === 0).map(nameOf)).toEqual(['6']);
  });

  it('leaves the top and bottom rows’ way out to the screen: up to the field, down past the keyboard', () => {
    show('numeric');
    key('2').focus();
    expect(press('ArrowUp')).toBe(false);
    key('Done').focus();
    expect(press('ArrowDown')).toBe(false);
  });

  it('types the focused key on select, and keeps the focus there for the next one', () => {
    show('code-digits');
    key('7').focus();
    select();
    press('ArrowRight');
    select();
    expect(field.value).toBe('78');
    expect(focusedName()).toBe('8');
    expect(inputs.map((event) => event.data)).toEqual(['7', '8']);
  });

  it('stays on the keyboard when a key switches the layout: on the key that switches back', async () => {
    show('code');
    key('123').focus();
    select();
    await tick();
    expect(document.querySelector('[data-testid="on-screen-keyboard"]')?.getAttribute('data-layout')).toBe('code-digits');
    expect(focusedName()).toBe('ABC');
    select();
    await tick();
    expect(focusedName()).toBe('123');
  });
});
