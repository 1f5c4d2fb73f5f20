import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { activeRoot, controlParts, controlsOf, neighbourOf, partsOf, readBackParts, screenParts } from './spoken-screen.dom.ts';

afterEach(() => document.body.replaceChildren());

const t = i18n.t;

function show(html: string) {
  document.body.innerHTML = `<main class="kiosk">${html}</main>`;
  return activeRoot(document)!;
}

describe('what a screen says', () => {
  it('says the heading, what the screen marks to say, and its controls by name; private text marked', () => {
    const root = show(`
      <section data-screen>
        <h1>Welcome back, <span data-private>s•••@example.nl</span></h1>
        <div data-speak><span>Your credits</span> <strong data-private>1,250</strong></div>
        <p>Not said: not marked</p>
        <button><span aria-hidden="true">☕</span><div>Free coffee</div><div>Valid until 25 January</div></button>
        <button disabled>Previous</button>
        <button>I’m done</button>
      </section>`);
    expect(screenParts(root, t)).toEqual([
      { text: 'Welcome back,' },
      { text: 's•••@example.nl', private: true },
      { text: 'Your credits' },
      { text: '1,250', private: true },
      { text: 'You can choose' },
      { text: 'Free coffee, Valid until 25 January' },
      { text: 'I’m done' },
    ]);
  });

  it('counts the controls of a screen with many, instead of naming them', () => {
    const root = show(`<section data-screen><h1>Keys</h1>${'<button>k</button>'.repeat(12)}</section>`);
    expect(screenParts(root, t).at(-1)).toEqual({ text: '12 choices. Move between them with the arrow keys.' });
  });

  it('takes an open dialog as where the shopper is, over the screen', () => {
    show(`<section data-screen><h1>Home</h1></section><div role="alertdialog" aria-modal="true"><h2>Are you still there?</h2><button>I’m still here</button></div>`);
    expect(activeRoot(document)!.getAttribute('role')).toBe('alertdialog');
  });
});

describe('what a control says', () => {
  it("says its name, what it is, its state and its place; a field's value as private; a password never", () => {
    const root = show(`
      <section data-screen>
        <button aria-pressed="true">Nederlands</button>
        <label>E-mail address <input type="email" value="sanne@example.nl"></label>
        <label><input type="checkbox"> I agree</label>
        <label>PIN <input type="password" value="1234"></label>
      </section>`);
    const [language, email, box, pin] = controlsOf(root);
    expect(controlParts(language!, root, t)).toEqual([{ text: 'Nederlands' }, { text: 'button, selected' }, { text: '1 of 4' }]);
    // Spelled out, so what was typed can be checked (#33 §9).
    expect(controlParts(email!, root, t)).toEqual([{ text: 'E-mail address' }, { text: 'text field' }, { text: 's a n n e at e x a m p l e dot n l', private: true }, { text: '2 of 4' }]);
    expect(controlParts(box!, root, t)).toEqual([{ text: 'I agree' }, { text: 'checkbox, not checked' }, { text: '3 of 4' }]);
    expect(controlParts(pin!, root, t).map((part) => part.text)).not.toContain('1234');
  });

  it('moves to the next and previous control round the ends, and leaves out what cannot be reached', () => {
    const root = show(`<section data-screen><button>a</button><button disabled>x</button><button tabindex="-1">y</button><div aria-hidden="true"><button>z</button></div><button>b</button></section>`);
    const [a, b] = controlsOf(root);
    expect(controlsOf(root).map((control) => control.textContent)).toEqual(['a', 'b']);
    expect(neighbourOf(root, a!, 1)).toBe(b);
    expect(neighbourOf(root, b!, 1)).toBe(a);
    expect(neighbourOf(root, a!, -1)).toBe(b);
    expect(neighbourOf(root, null, 1)).toBe(a);
  });

  it('in speech mode, leaves the visual modes out and puts the way back after the screen\'s actions (#33 §12)', () => {
    const screen = `<section data-screen><button data-back>Back</button><button>Redeem</button><button data-visual-mode>High contrast</button><button>Speech</button></section>`;
    const names = (root: ParentNode) => controlsOf(root).map((control) => control.textContent);
    expect(names(show(screen))).toEqual(['Back', 'Redeem', 'High contrast', 'Speech']);
    document.body.innerHTML = `<main class="kiosk speech-mode">${screen}</main>`;
    const root = activeRoot(document)!;
    expect(names(root)).toEqual(['Redeem', 'Speech', 'Back']);
    expect(controlParts(root.querySelector('[data-back]')!, root, t).at(-1)).toEqual({ text: '3 of 3' });
    expect(screenParts(root, t).slice(-3)).toEqual([{ text: 'Redeem' }, { text: 'Speech' }, { text: 'Back' }]);
  });

  it('runs inline text on, and pauses between blocks', () => {
    const root = show(`<section data-screen><div data-speak><p>Redeemed on <b>26 November</b></p><p>Enjoy</p></div></section>`);
    expect(partsOf(root.querySelector('[data-speak]')!)).toEqual([{ text: 'Redeemed on 26 November, Enjoy' }]);
  });
});

describe('typing by keypad (#33 §1, §9)', () => {
  it('says an on-screen key by its name alone, a latched one as selected', () => {
    const root = show(`
      <section data-screen>
        <label>Card number <input value="2400"></label>
        <div data-key-grid><div class="row"><button>7</button><button aria-label="Shift" aria-pressed="true">⇧</button></div></div>
      </section>`);
    const [seven, shift] = root.querySelectorAll<HTMLElement>('[data-key-grid] button');
    expect(controlParts(seven!, root, t)).toEqual([{ text: '7' }]);
    expect(controlParts(shift!, root, t)).toEqual([{ text: 'Shift' }, { text: 'selected' }]);
  });

  it('reads a field back character by character for its owner, says an empty one is empty, and never a password', () => {
    const root = show(`
      <section data-screen>
        <label>Card number <input value="2400"></label>
        <label>E-mail <input value=""></label>
        <label>PIN <input type="password" value="1234"></label>
        <label>Amount <input value="1250" data-spoken-value="€12.50"></label>
      </section>`);
    const [card, email, pin, amount] = root.querySelectorAll('input');
    expect(readBackParts(card!, t)).toEqual([{ text: 'Card number' }, { text: '2 4 0 0', private: true }]);
    expect(readBackParts(email!, t)).toEqual([{ text: 'E-mail' }, { text: 'empty' }]);
    expect(readBackParts(pin!, t)).toEqual([{ text: 'PIN' }]);
    // A field whose digits mean something else (cents typed as at a till) says what they mean.
    expect(readBackParts(amount!, t)).toEqual([{ text: 'Amount' }, { text: '€12.50', private: true }]);
  });
});
