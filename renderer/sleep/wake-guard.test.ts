import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachWedgeListener } from '../scanner/wedge-listener.dom.ts';
import { attachWakeGuard } from './wake-guard.dom.ts';

let sleeping: boolean;
let wakes: number;
let detach: () => void;
let button: HTMLButtonElement;
let pressed: string[];
/** The test's clock for event timestamps (ms). */
let now: number;

beforeEach(() => {
  sleeping = true;
  wakes = 0;
  now = 1_000;
  pressed = [];
  detach = attachWakeGuard(window, {
    isSleeping: () => sleeping,
    onWake: () => {
      wakes++;
      sleeping = false; // the screen comes back at once, under the finger
    },
  });
  document.body.innerHTML = '<button type="button">Join</button>';
  button = document.querySelector('button') as HTMLButtonElement;
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'touchstart', 'touchend']) button.addEventListener(type, () => pressed.push(type));
});

afterEach(() => {
  detach();
  document.body.replaceChildren();
});

/** Dispatches `type` on `target` at the test's clock, as the browser would; true when nobody prevented it. */
function fire(target: EventTarget, type: string, init: Record<string, unknown> = {}, advanceMs = 1): boolean {
  now += advanceMs;
  const EventType = type.startsWith('key') ? KeyboardEvent : type.startsWith('touch') ? TouchEvent : MouseEvent;
  const event = new EventType(type, { bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'timeStamp', { value: now });
  if (init.pointerId !== undefined) Object.defineProperty(event, 'pointerId', { value: init.pointerId });
  return target.dispatchEvent(event);
}

/** A finger's tap as Chromium delivers it: touch and pointer events, the compatibility mouse events, then click. */
function tap(target: EventTarget, pointerId = 1, holdMs = 80) {
  fire(target, 'touchstart');
  fire(target, 'pointerdown', { pointerId });
  fire(target, 'touchend', {}, holdMs);
  fire(target, 'pointerup', { pointerId });
  fire(target, 'mousedown');
  fire(target, 'mouseup');
  fire(target, 'click');
}

describe('the wake guard', () => {
  it('swallows the whole waking tap: the button under it is never pressed, and the kiosk wakes once', () => {
    tap(button);
    expect(wakes).toBe(1);
    expect(pressed).toEqual([]);
  });

  it('keeps swallowing while the waking finger stays down, however long', () => {
    fire(button, 'pointerdown', { pointerId: 7 });
    fire(button, 'pointerup', { pointerId: 7 }, 5_000);
    fire(button, 'click');
    expect(pressed).toEqual([]);
    expect(wakes).toBe(1);
  });

  it('lets the next tap through once the waking gesture is over', () => {
    tap(button);
    now += 600;
    tap(button);
    expect(pressed).toEqual(['touchstart', 'pointerdown', 'touchend', 'pointerup', 'mousedown', 'mouseup', 'click']);
    expect(wakes).toBe(1);
  });

  it('a second tap hard on the first is still part of the wake', () => {
    tap(button);
    now += 100;
    tap(button);
    expect(pressed).toEqual([]);
  });

  it('swallows a whole keyboard-wedge scan, so no lookup starts; the wedge listener behind it sees none of it', async () => {
    const onScan = vi.fn();
    const detachWedge = attachWedgeListener(window, {}, onScan);
    try {
      for (const key of [...'2700000000017', 'Enter']) fire(document.body, 'keydown', { key }, 4);
      expect(wakes).toBe(1);
      // Past the wedge listener's settle time: nothing was held back to come out later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      now += 1_000;
      expect(onScan).not.toHaveBeenCalled();
      // Awake, the next scan is a scan.
      for (const key of [...'2700000000017', 'Enter']) fire(document.body, 'keydown', { key }, 4);
      expect(onScan).toHaveBeenCalledOnce();
    } finally {
      detachWedge();
    }
  });

  it('does not wake on a key let go (keyup) or on a pointer lifted after falling asleep, but swallows them', () => {
    expect(fire(document.body, 'keyup', { key: 'a' })).toBe(false);
    fire(button, 'pointerup', { pointerId: 3 });
    expect(wakes).toBe(0);
    expect(pressed).toEqual([]);
  });

  it('passes everything through while the kiosk is awake', () => {
    sleeping = false;
    tap(button);
    expect(pressed).toHaveLength(7);
    expect(wakes).toBe(0);
  });

  it('forgets a pointer whose up never came, so the kiosk cannot stay deaf for ever', () => {
    fire(button, 'pointerdown', { pointerId: 9 });
    now += 31_000;
    tap(button, 10);
    expect(pressed).toHaveLength(7);
  });
});
