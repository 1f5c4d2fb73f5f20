import { afterEach, expect, it } from 'vitest';
import { giveBackText } from './give-back-text.dom.ts';

afterEach(() => document.body.replaceChildren());

/** Focuses a fresh field made from `html` and records the `data` of its input events. */
function focused<T extends HTMLElement>(html: string): { field: T; inputs: (string | null)[] } {
  document.body.innerHTML = html;
  const field = document.body.firstElementChild as T;
  const inputs: (string | null)[] = [];
  field.addEventListener('input', (event) => inputs.push((event as InputEvent).data));
  field.focus();
  return { field, inputs };
}

it('replaces the selection of a textarea and leaves the caret after the text', () => {
  const { field, inputs } = focused<HTMLTextAreaElement>('<textarea>one two</textarea>');
  field.setSelectionRange(4, 7);
  giveBackText(document, 'three');
  expect(field.value).toBe('one three');
  expect(field.selectionStart).toBe(9);
  expect(inputs).toEqual(['three']);
});

it('types no further than maxlength, and announces nothing when the field is full', () => {
  const { field, inputs } = focused<HTMLInputElement>('<input maxlength="4" value="12">');
  field.setSelectionRange(2, 2);
  giveBackText(document, '345');
  expect(field.value).toBe('1234');
  giveBackText(document, '5');
  expect(inputs).toEqual(['34']);
});

it('appends to an email field, which has no caret API', () => {
  const { field } = focused<HTMLInputElement>('<input type="email" value="jane@">');
  giveBackText(document, 'example.com');
  expect(field.value).toBe('jane@example.com');
});

it.each(['<input type="checkbox">', '<input readonly>', '<button>OK</button>'])(
  'gives nothing to %s',
  (html) => {
    const { field, inputs } = focused<HTMLInputElement>(html);
    const before = field.value;
    giveBackText(document, 'abc');
    expect(field.value).toBe(before);
    expect(inputs).toEqual([]);
  },
);

it('presses a focused button or ticks a focused box with a lone Space, as the browser would have', () => {
  const { field: box } = focused<HTMLInputElement>('<input type="checkbox">');
  giveBackText(document, ' ');
  expect(box.checked).toBe(true);
  giveBackText(document, 'x ');
  expect(box.checked).toBe(true);
  const { field: button } = focused<HTMLButtonElement>('<button type="button">Join</button>');
  let pressed = 0;
  button.addEventListener('click', () => (pressed += 1));
  giveBackText(document, ' ');
  expect(pressed).toBe(1);
});
