import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { scanPlacementText } from './scan-placement.std.ts';

afterEach(() => i18n.use('en'));

describe('scanPlacementText', () => {
  it('says where the device in use is, in the shopper’s language, and nothing where the store has not said', () => {
    const settings = { scanPlacement: { camera: 'above', hand_scanner: 'right' } } as const;
    expect(scanPlacementText(i18n.t, settings, 'camera')).toBe('The camera is above the screen.');
    expect(scanPlacementText(i18n.t, settings, 'hand_scanner')).toBe('The scanner is to the right of the screen.');
    i18n.use('nl');
    expect(scanPlacementText(i18n.t, settings, 'hand_scanner')).toBe('De scanner zit rechts van het scherm.');
    expect(scanPlacementText(i18n.t, { scanPlacement: { camera: 'unstated', hand_scanner: 'below' } }, 'camera')).toBeNull();
  });
});
