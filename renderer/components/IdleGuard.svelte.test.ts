import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mountInBody } from '../mount-for-test.dom.ts';
import IdleGuard from './IdleGuard.svelte';

let unmountGuard: (() => void) | undefined;

afterEach(() => {
  unmountGuard?.();
  vi.useRealTimers();
});

/** The guard with a 60 s timeout and a 20 s warning; `props.scans` is what App counts up on each scan. */
function guard() {
  vi.useFakeTimers();
  const props = $state({ timeoutSeconds: 60, warningSeconds: 20, scans: 0, onTimeout: vi.fn(), announce: vi.fn() });
  unmountGuard = mountInBody(IdleGuard, props);
  const warning = () => document.querySelector('[data-testid="idle-warning"]');
  const scan = () => {
    props.scans++;
    flushSync();
  };
  const pass = (ms: number) => {
    vi.advanceTimersByTime(ms);
    flushSync();
  };
  return { props, warning, scan, pass };
}

describe('IdleGuard', () => {
  it('warns after the timeout and ends the visit after the warning, with nothing done meanwhile', () => {
    const { props, warning, pass } = guard();
    pass(59_000);
    expect(warning()).toBeNull();
    pass(1_000);
    expect(warning()).not.toBeNull();
    pass(20_000);
    expect(props.onTimeout).toHaveBeenCalledOnce();
  });

  it('says the warning whole, once its button has the focus: the focus\'s own words come first and cannot cut it off (#33 §5)', () => {
    const { props, pass } = guard();
    let focusedWhenSaid: string | undefined;
    props.announce = vi.fn(() => void (focusedWhenSaid = document.activeElement?.textContent?.trim()));
    pass(60_000);
    expect(props.announce).toHaveBeenCalledOnce();
    expect(props.announce).toHaveBeenCalledWith([
      { text: 'Are you still there?' },
      { text: 'Starting over in 20 seconds' },
      { text: 'Press any key or touch the screen to stay.' },
    ]);
    expect(focusedWhenSaid).toBe('I’m still here');
  });

  it('takes a scan for a shopper: the whole time again, and a warning showing is answered (#33 §13)', () => {
    const { props, warning, scan, pass } = guard();
    pass(50_000);
    scan();
    pass(50_000);
    expect(warning()).toBeNull();
    pass(10_000);
    expect(warning()).not.toBeNull();
    scan();
    expect(warning()).toBeNull();
    pass(59_000);
    expect(warning()).toBeNull();
    expect(props.onTimeout).not.toHaveBeenCalled();
  });
});
