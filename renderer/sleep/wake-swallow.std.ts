/**
 * The sleeping kiosk's input rule: the first touch, click or key only wakes it, and nothing of that
 * gesture reaches the page. A tap is many events (touchstart, pointerdown, mousedown, pointerup,
 * mouseup, click) and a keyboard-wedge scan is a burst of keys, so after the waking event every
 * input is swallowed until no pointer is down and none has come for `quietMs`.
 */

/** Every event a touch, click or key is made of; moves and hovers neither wake nor press anything. */
export const INPUT_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'touchstart',
  'touchend',
  'touchcancel',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'keydown',
  'keypress',
  'keyup',
] as const;

/** The waking gesture ends once no input has come for this long (and no pointer is down). */
export const WAKE_QUIET_MS = 500;

/** Events that start a gesture: only these wake the kiosk (a key let go after it fell asleep does not). */
const WAKING = new Set(['pointerdown', 'touchstart', 'mousedown', 'keydown']);

export interface SwallowedInput {
  type: string;
  /** Pointer events: which finger or mouse. */
  pointerId?: number;
  /** Event time in ms (any one clock). */
  at: number;
}

export type InputVerdict = 'pass' | 'wake' | 'swallow';

export interface WakeSwallowOptions {
  /** No input for this long (and no pointer down) ends the waking gesture. */
  quietMs?: number;
  /** A pointer whose `up` never came is forgotten after this long without input. */
  stuckPointerMs?: number;
}

export class WakeSwallow {
  readonly #quietMs: number;
  readonly #stuckPointerMs: number;
  #swallowing = false;
  #lastInputAt = 0;
  readonly #pointersDown = new Set<number>();

  constructor({ quietMs = WAKE_QUIET_MS, stuckPointerMs = 30_000 }: WakeSwallowOptions = {}) {
    this.#quietMs = quietMs;
    this.#stuckPointerMs = stuckPointerMs;
  }

  /** What to do with `input`, given whether the kiosk shows its sleep screen now. */
  judge(input: SwallowedInput, sleeping: boolean): InputVerdict {
    if (this.#swallowing && this.#gestureOver(input.at)) this.#swallowing = false;
    if (!sleeping && !this.#swallowing) return 'pass';
    this.#follow(input);
    if (this.#swallowing) return 'swallow';
    if (!WAKING.has(input.type)) return 'swallow';
    this.#swallowing = true;
    return 'wake';
  }

  #gestureOver(at: number): boolean {
    const quietFor = at - this.#lastInputAt;
    if (quietFor >= this.#stuckPointerMs) this.#pointersDown.clear();
    return this.#pointersDown.size === 0 && quietFor >= this.#quietMs;
  }

  #follow({ type, pointerId, at }: SwallowedInput) {
    this.#lastInputAt = at;
    if (pointerId === undefined) return;
    if (type === 'pointerdown') this.#pointersDown.add(pointerId);
    else if (type === 'pointerup' || type === 'pointercancel') this.#pointersDown.delete(pointerId);
  }
}
