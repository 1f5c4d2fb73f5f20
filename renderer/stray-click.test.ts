import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropStrayClicks } from './stray-click.dom.ts';

let undo: (() => void) | undefined;

afterEach(() => {
  undo?.();
  undo = undefined;
  document.body.replaceChildren();
});

function button(name: string, onclick = vi.fn()) {
  const element = document.createElement('button');
  element.textContent = name;
  element.addEventListener('click', onclick);
  document.body.append(element);
  return { element, onclick };
}

const press = (element: Element) => element.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, pointerId: 1 }));
const pointerClick = (element: Element) => element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));

describe('dropStrayClicks', () => {
  it('drops the click of a press whose screen changed under the finger', () => {
    undo = dropStrayClicks(window);
    const done = button('Done');
    press(done.element);
    done.element.remove(); // Done opened the next screen before the click came
    const language = button('Nederlands');
    pointerClick(language.element);
    expect(language.onclick).not.toHaveBeenCalled();
  });

  it('lets through a click where the press began (or inside it), and one from a key (detail 0)', () => {
    undo = dropStrayClicks(window);
    const inner = document.createElement('span');
    const ok = button('OK');
    ok.element.append(inner);
    press(inner);
    pointerClick(ok.element);
    expect(ok.onclick).toHaveBeenCalledTimes(1);

    const other = button('Other');
    press(ok.element);
    other.element.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    expect(other.onclick).toHaveBeenCalledTimes(1);
  });

  it('lets the other window listeners see a dropped click, and lets a cancelled press go', () => {
    undo = dropStrayClicks(window);
    const seen = vi.fn();
    window.addEventListener('click', seen, { capture: true });
    const first = button('First');
    const second = button('Second');
    press(first.element);
    pointerClick(second.element);
    expect(second.onclick).not.toHaveBeenCalled();
    expect(seen).toHaveBeenCalledTimes(1);
    window.removeEventListener('click', seen, { capture: true });

    press(first.element);
    first.element.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true, pointerId: 1 }));
    pointerClick(second.element);
    expect(second.onclick).toHaveBeenCalledTimes(1);
  });
});
