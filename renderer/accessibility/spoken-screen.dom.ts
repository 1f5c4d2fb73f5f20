import type { SpeechPart } from '../../common/speech.std.ts';
import type { Translate } from '../i18n/message-types.std.ts';
import { spelledOut } from './spelled.std.ts';

/**
 * What the kiosk says of a screen and of a control, read from the DOM the shopper sees: a screen
 * says no more and no less than it shows. Text inside `data-private` (an e-mail, credits, a code)
 * is marked private, so main speaks it on a headset only; `data-speak` marks what a screen says
 * besides its heading; an input's value is private, a password never said.
 */

/**
 * No frame: a frame of another origin (the platform's hosted page) takes the keys and never hands
 * them back, so the arrows of a keypad would be stuck in it. Tab enters and leaves it, natively.
 */
const CONTROLS = 'button, input, select, textarea, a[href], [role="button"]';
/** More controls than this on a screen are counted rather than named. */
const NAMED_CONTROLS_MAX = 6;

/**
 * Where the shopper is: an open dialog (the idle warning), else the screen on top (`data-screen`:
 * out of service over any other).
 */
export function activeRoot(document: Document): HTMLElement | null {
  return document.querySelector<HTMLElement>('[aria-modal="true"]') ?? [...document.querySelectorAll<HTMLElement>('[data-screen]')].at(-1) ?? null;
}

/**
 * The controls a shopper can reach in `root`, in the order Tab visits them (the DOM's: no positive
 * tabindex is used). In speech mode, the shorter list a listener needs (#33 §12): no visual-mode
 * toggles (`data-visual-mode`), and the way back (`data-back`) after the screen's own actions.
 */
export function controlsOf(root: ParentNode): HTMLElement[] {
  const reachable = [...root.querySelectorAll<HTMLElement>(CONTROLS)].filter(
    (control) => control.tabIndex >= 0 && !control.matches(':disabled') && !control.closest('[hidden], [inert], [aria-hidden="true"]'),
  );
  if (!(root instanceof Element && root.closest('.kiosk.speech-mode'))) return reachable;
  const heard = reachable.filter((control) => !control.matches('[data-visual-mode]'));
  return [...heard.filter((control) => !control.matches('[data-back]')), ...heard.filter((control) => control.matches('[data-back]'))];
}

/** The control after (or before) `from` in `root`, round the end. */
export function neighbourOf(root: ParentNode, from: Element | null, step: 1 | -1): HTMLElement | null {
  const controls = controlsOf(root);
  if (controls.length === 0) return null;
  const at = from ? controls.indexOf(from as HTMLElement) : -1;
  if (at === -1) return step === 1 ? controls[0]! : controls.at(-1)!;
  return controls[(at + step + controls.length) % controls.length]!;
}

/** `element`'s text as speech, private runs marked; hidden parts (icons, aria-hidden) left out. */
export function partsOf(element: Element): SpeechPart[] {
  const parts: SpeechPart[] = [];
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let lastParent: Element | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent!.replace(/\s+/g, ' ').trim();
    const parent = node.parentElement!;
    if (!text || parent.closest('[aria-hidden="true"], script, style')) continue;
    const isPrivate = parent.closest('[data-private]') !== null;
    const last = parts.at(-1);
    // Text of another block (a voucher's name, then its validity) is a phrase of its own; inline text runs on.
    const runsOn = parent === lastParent || isInline(parent) || /[.,:;!?…]$/.test(last?.text ?? '');
    const joiner = runsOn ? ' ' : ', ';
    if (last && Boolean(last.private) === isPrivate) last.text = `${last.text}${joiner}${text}`;
    else parts.push(isPrivate ? { text, private: true } : { text });
    lastParent = parent;
  }
  return parts;
}

function isInline(element: Element): boolean {
  return element.ownerDocument.defaultView?.getComputedStyle(element).display === 'inline';
}

/** A control's name: its label, else its own text. */
function nameOf(control: HTMLElement): SpeechPart[] {
  const label = control.getAttribute('aria-label') ?? control.getAttribute('title');
  if (label) return [{ text: label }];
  const labelledBy = control.getAttribute('aria-labelledby');
  const labelElement = labelledBy ? control.ownerDocument.getElementById(labelledBy) : (control as HTMLInputElement).labels?.[0];
  if (labelElement) return partsOf(labelElement);
  return partsOf(control);
}

function roleOf(control: HTMLElement, t: Translate): string {
  if (control instanceof HTMLIFrameElement) return t('speech.role.page');
  if (control instanceof HTMLInputElement && control.type === 'checkbox') {
    return `${t('speech.role.checkbox')}, ${control.checked ? t('speech.state.checked') : t('speech.state.unchecked')}`;
  }
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) return t('speech.role.field');
  if (control.getAttribute('aria-pressed') === 'true') return `${t('speech.role.button')}, ${t('speech.state.selected')}`;
  return t('speech.role.button');
}

/**
 * What a field holds, for its owner's ears only: spelled out (a card number digit by digit), or what
 * it means where the field says (`data-spoken-value`: cents typed as at a till are an amount). A
 * password is never said.
 */
function valueOf(control: HTMLElement, t: Translate): SpeechPart[] {
  const field = control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control : null;
  if (!field || field.type === 'password' || field.type === 'checkbox' || !field.value) return [];
  return [{ text: field.getAttribute('data-spoken-value') ?? spelledOut(field.value, t), private: true }];
}

/** A text field, and what it holds, read back on request (#33 §9): its name, then each character, or that it is empty. */
export function readBackParts(field: HTMLInputElement | HTMLTextAreaElement, t: Translate): SpeechPart[] {
  const value = valueOf(field, t);
  return [...nameOf(field), ...(value.length > 0 || field.type === 'password' ? value : [{ text: t('speech.field_empty') }])];
}

/**
 * The focused control: its name, what it is, what it holds, and where it stands ("2 of 5"). An
 * on-screen keyboard's key is its name alone: a keypad moves over forty of them.
 */
export function controlParts(control: HTMLElement, root: ParentNode, t: Translate): SpeechPart[] {
  if (control.closest('[data-key-grid]')) return [...nameOf(control), ...(control.getAttribute('aria-pressed') === 'true' ? [{ text: t('speech.state.selected') }] : [])];
  const controls = controlsOf(root);
  const at = controls.indexOf(control);
  const position = at === -1 ? [] : [{ text: t('speech.position', { position: at + 1, count: controls.length }) }];
  return [...nameOf(control), { text: roleOf(control, t) }, ...valueOf(control, t), ...position];
}

/**
 * A screen: what it is (its heading, what it marks `data-speak`, a problem or a notice) and what
 * the shopper can do there (its controls by name, or how many there are).
 */
export function screenParts(root: HTMLElement, t: Translate): SpeechPart[] {
  const told = [...root.querySelectorAll('h1, h2[id$="title"], [data-speak], [role="alert"], [role="status"]')];
  const parts = told.flatMap((element) => partsOf(element));
  const controls = controlsOf(root);
  if (controls.length > NAMED_CONTROLS_MAX) return [...parts, { text: t('speech.choices.count', { count: controls.length }) }];
  if (controls.length === 0) return parts;
  return [...parts, { text: t('speech.choices') }, ...controls.flatMap((control) => nameOf(control))];
}
