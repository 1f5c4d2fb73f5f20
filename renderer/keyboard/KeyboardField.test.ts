import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import KeyboardField from './KeyboardField.svelte';
import { flushSync, mountInBody } from '../mount-for-test.dom.ts';

let unmountField: (() => void) | undefined;

afterEach(() => {
  unmountField?.();
  unmountField = undefined;
  document.body.innerHTML = '';
});

/** Mounts a field whose bound `value` lands in `bound.value`, as `bind:value` in a parent would. */
function show(props: { enableOnScreenKeyboard: boolean; layout?: 'email' | 'numeric'; maxlength?: number; onDone?: () => void }) {
  const bound = { value: '' };
  unmountField = mountInBody(KeyboardField, {
    label: 'E-mail address',
    inputmode: 'email',
    ...props,
    get value() {
      return bound.value;
    },
    set value(next: string) {
      bound.value = next;
    },
  });
  const input = document.querySelector('input')!;
  return { bound, input };
}

const keyboard = (): HTMLElement | null => document.querySelector('[data-testid="on-screen-keyboard"]');

function tap(name: string): void {
  const button = [...document.querySelectorAll('button')].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === name,
  )!;
  const init = { bubbles: true, cancelable: true, pointerId: 1, button: 0 };
  button.dispatchEvent(new PointerEvent('pointerdown', init));
  button.dispatchEvent(new PointerEvent('pointerup', init));
  flushSync();
}

describe('with the on-screen keyboard', () => {
  it('shows it only while the field has focus', () => {
    const { input } = show({ enableOnScreenKeyboard: true });
    expect(keyboard()).toBeNull();
    input.focus();
    flushSync();
    expect(keyboard()).not.toBeNull();
    input.blur();
    flushSync();
    expect(keyboard()).toBeNull();
  });

  it('by keypad, Done closes the keyboard and leaves the focus on the next control, not on the page (#33 §1)', async () => {
    const onDone = vi.fn();
    const { input } = show({ enableOnScreenKeyboard: true, onDone });
    const next = document.createElement('button');
    next.textContent = 'Find me';
    document.body.append(next);
    input.focus();
    flushSync();
    const done = [...keyboard()!.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Done')!;
    done.focus();
    flushSync();
    // The keypad's select: a click with detail 0 on the focused key.
    done.click();
    await tick();
    expect(onDone).toHaveBeenCalledOnce();
    expect(keyboard()).toBeNull();
    expect(document.activeElement).toBe(next);
  });

  it('labels the field and keeps a tablet’s own keyboard and autofill away', () => {
    const { input } = show({ enableOnScreenKeyboard: true });
    expect(input.labels?.[0]?.textContent).toContain('E-mail address');
    expect(input.getAttribute('inputmode')).toBe('none');
    expect(input.getAttribute('autocomplete')).toBe('off');
  });

  it('types into the bound value', () => {
    const { bound, input } = show({ enableOnScreenKeyboard: true, layout: 'email' });
    input.focus();
    flushSync();
    ['j', 'at', 'x', '.nl'].forEach(tap);
    expect(bound.value).toBe('j@x.nl');
    expect(document.activeElement).toBe(input);
  });

  it('done closes the keyboard and calls onDone', () => {
    const onDone = vi.fn();
    const { input } = show({ enableOnScreenKeyboard: true, layout: 'numeric', onDone });
    input.focus();
    flushSync();
    tap('Done');
    expect(onDone).toHaveBeenCalledOnce();
    expect(keyboard()).toBeNull();
    expect(document.activeElement).not.toBe(input);
  });

  it('stays open when focus moves onto one of its own keys', () => {
    const { input } = show({ enableOnScreenKeyboard: true });
    input.focus();
    flushSync();
    document.querySelector<HTMLButtonElement>('[data-testid="on-screen-keyboard"] button')!.focus();
    flushSync();
    expect(keyboard()).not.toBeNull();
  });

  it('honours maxlength', () => {
    const { bound, input } = show({ enableOnScreenKeyboard: true, layout: 'numeric', maxlength: 2 });
    input.focus();
    flushSync();
    ['1', '2', '3'].forEach(tap);
    expect(bound.value).toBe('12');
  });
});

describe('a physical keyboard', () => {
  it('types as usual, and Enter counts as done', () => {
    const onDone = vi.fn();
    const { bound, input } = show({ enableOnScreenKeyboard: true, onDone });
    input.focus();
    input.value = 'typed';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'd' }));
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(enter);
    flushSync();
    expect(bound.value).toBe('typed');
    expect(onDone).toHaveBeenCalledOnce();
    // onDone already submits: a surrounding form must not get Enter's implicit submit as well.
    expect(enter.defaultPrevented).toBe(true);
  });
});

describe('without the on-screen keyboard', () => {
  it('is just the field, with the requested inputmode', () => {
    const { input } = show({ enableOnScreenKeyboard: false });
    input.focus();
    flushSync();
    expect(keyboard()).toBeNull();
    expect(input.getAttribute('inputmode')).toBe('email');
  });
});
