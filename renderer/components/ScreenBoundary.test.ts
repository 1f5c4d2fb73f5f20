import { createRawSnippet } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shopperMessages } from '../i18n/messages/shopper.std.ts';
import { flushSync, mountInBody } from '../mount-for-test.dom.ts';
import ScreenBoundary from './ScreenBoundary.svelte';
import { kioskSettingsView } from '../../test/support/factories.std.ts';

let unmountBoundary: (() => void) | undefined;

afterEach(() => {
  unmountBoundary?.();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

/** A screen that throws while it renders as long as `broken.now` is true. */
function screenThat(broken: { now: boolean }) {
  return createRawSnippet(() => ({
    render: () => {
      if (broken.now) throw new Error('Cannot read properties of undefined (reading "voucher")');
      return '<p data-testid="healthy-screen">Welcome</p>';
    },
  }));
}

function show(broken: { now: boolean }) {
  const onFailure = vi.fn();
  unmountBoundary = mountInBody(ScreenBoundary, { brand: { ...kioskSettingsView().brand, name: 'Bakkerij Jansen' }, onFailure, children: screenThat(broken) });
  return { onFailure };
}

const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`);

describe('ScreenBoundary', () => {
  it('passes a healthy screen through untouched', () => {
    const { onFailure } = show({ now: false });
    expect(byTestId('healthy-screen')).not.toBeNull();
    expect(byTestId('screen-failure')).toBeNull();
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('shows a friendly page instead of a broken screen, and reports the error once', () => {
    const { onFailure } = show({ now: true });
    const failure = byTestId('screen-failure');
    expect(failure?.textContent).toContain(shopperMessages.en['problem.generic']);
    expect(failure?.textContent).not.toContain('Cannot read properties');
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0]![0]).toBeInstanceOf(Error);
  });

  it('starts over when the shopper taps, rendering the screen again', () => {
    const broken = { now: true };
    show(broken);
    broken.now = false;
    (document.querySelector('[data-testid="screen-failure"] button') as HTMLButtonElement).click();
    flushSync();
    expect(byTestId('healthy-screen')).not.toBeNull();
    expect(byTestId('screen-failure')).toBeNull();
  });

  it('starts over by itself when nobody taps', () => {
    vi.useFakeTimers();
    const broken = { now: true };
    show(broken);
    broken.now = false;
    vi.advanceTimersByTime(7_900);
    flushSync();
    expect(byTestId('screen-failure')).not.toBeNull();
    vi.advanceTimersByTime(200);
    flushSync();
    expect(byTestId('healthy-screen')).not.toBeNull();
  });
});
