import { describe, expect, it } from 'vitest';
import { CornerGesture } from './corner-gesture.std.ts';

/** Taps `count` times, one every `every` ms from `from`, each held 80 ms; the results of each release. */
function taps(gesture: CornerGesture, count: number, every: number, from = 0): boolean[] {
  return Array.from({ length: count }, (_, index) => {
    const at = from + index * every;
    gesture.press(at);
    return gesture.release(at + 80);
  });
}

describe('corner gesture', () => {
  it('opens on the fifth tap within three seconds, not before', () => {
    const gesture = new CornerGesture();
    expect(taps(gesture, 5, 500)).toEqual([false, false, false, false, true]);
  });

  it('does not open when the five taps take longer than three seconds', () => {
    const gesture = new CornerGesture();
    expect(taps(gesture, 5, 800)).toEqual([false, false, false, false, false]);
    // A sixth tap makes the last five (800 ms to 3.38 s) fit in the window.
    expect(taps(gesture, 1, 0, 3_300)).toEqual([true]);
  });

  it('starts counting afresh once it has opened', () => {
    const gesture = new CornerGesture();
    taps(gesture, 5, 100);
    expect(taps(gesture, 4, 100, 1_000)).toEqual([false, false, false, false]);
  });

  it('opens after a three-second hold while the finger is still down, and only once', () => {
    const gesture = new CornerGesture();
    gesture.press(1_000);
    expect(gesture.holdDeadline).toBe(4_000);
    expect(gesture.check(3_999)).toBe(false);
    expect(gesture.check(4_000)).toBe(true);
    expect(gesture.check(4_500)).toBe(false);
    expect(gesture.holdDeadline).toBeNull();
    // Lifting the finger afterwards is neither a second opening nor a tap.
    expect(gesture.release(5_000)).toBe(false);
  });

  it('opens on a release after three seconds when no timer checked in time', () => {
    const gesture = new CornerGesture();
    gesture.press(0);
    expect(gesture.release(3_200)).toBe(true);
  });

  it('forgets a hold whose finger slid out of the corner', () => {
    const gesture = new CornerGesture();
    gesture.press(0);
    gesture.cancel();
    expect(gesture.check(5_000)).toBe(false);
    expect(gesture.release(5_000)).toBe(false);
  });

  it('does not count a cancelled press as a tap', () => {
    const gesture = new CornerGesture();
    taps(gesture, 4, 100);
    gesture.press(500);
    gesture.cancel();
    expect(gesture.release(580)).toBe(false);
    expect(taps(gesture, 1, 0, 700)).toEqual([true]);
  });

  it('a short hold is a tap', () => {
    const gesture = new CornerGesture({ taps: 2 });
    gesture.press(0);
    expect(gesture.release(2_000)).toBe(false);
    gesture.press(2_100);
    expect(gesture.release(2_200)).toBe(true);
  });
});
