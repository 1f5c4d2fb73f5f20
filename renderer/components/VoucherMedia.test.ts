import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mountInBody } from '../mount-for-test.dom.ts';
import VoucherMedia from './VoucherMedia.svelte';

let unmountMedia: (() => void) | undefined;
afterEach(() => {
  unmountMedia?.();
  document.body.innerHTML = '';
});

describe('VoucherMedia', () => {
  it('shows the gift instead of an image that does not load (the CSP blocks other origins)', () => {
    unmountMedia = mountInBody(VoucherMedia, { media: { kind: 'image', value: 'https://images.elsewhere.example/promo.png' } });
    const image = document.querySelector('img');
    expect(image?.getAttribute('src')).toBe('https://images.elsewhere.example/promo.png');
    image!.dispatchEvent(new Event('error'));
    flushSync();
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('.media')?.textContent?.trim()).toBe('🎁');
  });
});
