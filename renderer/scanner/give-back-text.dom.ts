/** Input types a person types text into; the rest (checkbox, button, date...) take no characters. */
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'url', 'tel', 'password', 'email', 'number']);

/** The text field a person's keys would land in now, if any. */
export function focusedTextField(document: Document): HTMLInputElement | HTMLTextAreaElement | null {
  const field = document.activeElement;
  const isTextField =
    field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(field.type));
  return isTextField && !field.readOnly ? field : null;
}

/** Controls a person's Space presses (or ticks), as the browser would have. */
const PRESSED_BY_SPACE = new Set(['checkbox', 'radio', 'button', 'submit']);

/**
 * Types `text` into the focused text field as the browser would have: at the caret, replacing the
 * selection, within `maxlength`, then an `input` event so Svelte bindings update. A lone Space on a
 * focused button or box presses it (a keyboard user's way to tick the box). Otherwise, with no text
 * field focused (the attract screen), the keys had nowhere to go, so there is nothing to do.
 */
export function giveBackText(document: Document, text: string): void {
  const field = focusedTextField(document);
  if (!field) {
    const control = document.activeElement;
    const pressable = control instanceof HTMLButtonElement || (control instanceof HTMLInputElement && PRESSED_BY_SPACE.has(control.type));
    if (text === ' ' && pressable) (control as HTMLElement).click();
    return;
  }

  // email and number inputs have no caret API (selectionStart is null): type at the end.
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? field.value.length;
  const room = field.maxLength < 0 ? text.length : field.maxLength - (field.value.length - (end - start));
  const typed = text.slice(0, Math.max(0, room));
  if (typed === '') return;

  if (field.selectionStart === null) field.value += typed;
  else field.setRangeText(typed, start, end, 'end');
  field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: typed }));
}
