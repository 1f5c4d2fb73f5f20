import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scan } from '../../common/scan.std.ts';
import { attachWedgeListener } from './wedge-listener.dom.ts';

let onScan: ReturnType<typeof vi.fn<(scan: Scan) => void>>;
let detach: () => void;
let field: HTMLInputElement;
/** Keys that got past the listener to the field's own handlers. */
let seenByField: string[];

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  document.body.innerHTML = '<input id="card">';
  field = document.querySelector('input') as HTMLInputElement;
  seenByField = [];
  field.addEventListener('keydown', (event) => seenByField.push(event.key));
  onScan = vi.fn<(scan: Scan) => void>();
  detach = attachWedgeListener(window, {}, onScan);
});

afterEach(() => {
  detach();
  vi.useRealTimers();
  document.body.replaceChildren();
});

/**
 * Presses `key` on whatever has focus, stamped with the (fake) clock, and does what the browser
 * would if nobody prevented it: a character lands at the caret of a focused field.
 */
function press(key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'timeStamp', { value: Date.now() });
  const focused = document.activeElement ?? document.body;
  focused.dispatchEvent(event);
  if (!event.defaultPrevented && [...key].length === 1 && focused instanceof HTMLInputElement) {
    focused.setRangeText(key, focused.selectionStart ?? 0, focused.selectionEnd ?? 0, 'end');
  }
  return event;
}

function type(keys: string[], intervalMs: number): void {
  for (const key of keys) {
    press(key);
    vi.advanceTimersByTime(intervalMs);
  }
}

const code = '4006381333931';

describe('a fast burst', () => {
  it('leaves the focused input empty and scans once, Enter included', () => {
    field.focus();
    type([...code], 4);
    press('Enter');
    vi.runAllTimers();
    expect(field.value).toBe('');
    expect(seenByField).toEqual([]);
    expect(onScan).toHaveBeenCalledOnce();
    expect(Scan.parse(onScan.mock.calls[0]?.[0])).toEqual({ value: code, source: 'keyboard', at: Date.now() });
  });

  it('scans with no field focused (the attract screen)', () => {
    expect(document.activeElement).toBe(document.body);
    type([...code, 'Enter'], 4);
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: code, source: 'keyboard' }));
  });

  it('without a terminator, scans once the scanner has stayed quiet', () => {
    type([...code], 4);
    vi.advanceTimersByTime(950);
    expect(onScan).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(onScan).toHaveBeenCalledOnce();
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: code }));
  });

  it('stays one scan on the attract screen when a busy page receives its keys far apart from when they were pressed', () => {
    const pressedAt = Date.now();
    [...code, 'Enter'].forEach((key, index) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      Object.defineProperty(event, 'timeStamp', { value: pressedAt + index * 4 });
      window.dispatchEvent(event);
      vi.advanceTimersByTime(120);
    });
    expect(onScan).toHaveBeenCalledOnce();
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: code }));
  });
});

describe('a machine that hands over keys late', () => {
  /** Keys pressed 4 ms apart, all of them already `lagMs` old, handed to the page `deliveredEveryMs` apart. */
  function lateBurst(keys: string[], lagMs: number, deliveredEveryMs: number) {
    const pressedAt = performance.now() - lagMs;
    keys.forEach((key, index) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      Object.defineProperty(event, 'timeStamp', { value: pressedAt + index * 4 });
      window.dispatchEvent(event);
      vi.advanceTimersByTime(deliveredEveryMs);
    });
  }

  it('waits as much longer as the keys are late, so a stall between two keys does not split the scan', () => {
    // A fresh-clone run saw this: keys half a second old, and 300 ms between two of them.
    lateBurst([...code, 'Enter'], 500, 300);
    expect(onScan).toHaveBeenCalledOnce();
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: code }));
  });

  it('does not split a scan whose first key came at once and the rest 600 ms later, fresh', () => {
    const pressedAt = performance.now();
    [...code, 'Enter'].forEach((key, index) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      Object.defineProperty(event, 'timeStamp', { value: pressedAt + index * 4 });
      if (index === 1) vi.advanceTimersByTime(600);
      window.dispatchEvent(event);
    });
    expect(onScan).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ value: code }));
  });

  it('still settles a burst without a terminator once the late keys have stopped coming', () => {
    lateBurst([...code], 500, 4);
    vi.advanceTimersByTime(1_000);
    expect(onScan).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(onScan).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ value: code }));
  });
});

describe('a configured threshold (scanner.wedge.maxAverageIntervalMs)', () => {
  it('reads a burst 45 ms per key as a scan at 50 ms, where the default 30 ms gives it to the field', () => {
    field.focus();
    type([...code, 'Enter'], 45);
    expect(onScan).not.toHaveBeenCalled();
    expect(field.value).toBe(code);

    detach();
    detach = attachWedgeListener(window, { maxAverageIntervalMs: 50 }, onScan);
    field.value = '';
    type([...code, 'Enter'], 45);
    expect(onScan).toHaveBeenCalledOnce();
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: code, source: 'keyboard' }));
    expect(field.value).toBe('');
  });
});

describe('a person typing', () => {
  it('ends with the input holding exactly the typed text, announced by input events', () => {
    const inputs: string[] = [];
    field.addEventListener('input', () => inputs.push(field.value));
    field.focus();
    type([...'Jane 42'], 120);
    expect(field.value).toBe('Jane 42');
    expect(inputs.at(-1)).toBe('Jane 42');
    expect(onScan).not.toHaveBeenCalled();
  });

  it('gets each key into the field within the end gap, at the caret', () => {
    field.value = 'ac';
    field.focus();
    field.setSelectionRange(1, 1);
    press('b');
    expect(field.value).toBe('ac');
    vi.advanceTimersByTime(50);
    expect(field.value).toBe('abc');
    expect(field.selectionStart).toBe(2);
  });

  it('with nothing focused, is no scan and has its keys dropped quietly', () => {
    type([...'hello', 'Enter'], 120);
    vi.runAllTimers();
    expect(onScan).not.toHaveBeenCalled();
    expect(field.value).toBe('');
  });

  it('lets shortcuts and auto-repeat straight through', () => {
    field.focus();
    expect(press('a', { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(press('x', { repeat: true }).defaultPrevented).toBe(false);
    expect(seenByField).toEqual(['a', 'x']);
  });

  it('keeps AltGr characters, which Windows reports as Ctrl+Alt, in scans', () => {
    field.focus();
    const altGr: KeyboardEventInit = { ctrlKey: true, altKey: true, modifierAltGraph: true };
    for (const key of 'ab@cd') {
      press(key, key === '@' ? altGr : {});
      vi.advanceTimersByTime(4);
    }
    press('Enter');
    expect(onScan).toHaveBeenCalledWith(expect.objectContaining({ value: 'ab@cd' }));
  });
});

it('detach gives held keys back and stops listening', () => {
  field.focus();
  press('a');
  detach();
  expect(field.value).toBe('a');
  type([...'1234', 'Enter'], 4);
  vi.runAllTimers();
  expect(onScan).not.toHaveBeenCalled();
  expect(field.value).toBe('a1234');
});
