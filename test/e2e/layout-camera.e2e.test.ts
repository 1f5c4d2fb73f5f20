import { describe, expect, it } from 'vitest';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { busyBridge } from '../support/busy-bridge.node.ts';
import { cardOf, kioskSuite, openKiosk, scannerBurst } from '../support/kiosk-journey.node.ts';
import { LAYOUT_LANGUAGES } from '../support/layout-journey.node.ts';
import { walkSizes } from '../support/layout.node.ts';

/** The attract screen with the live camera picture (the default scanner), busy message and all, at every kiosk size. */
describe('layout: the attract screen with the camera picture fits every kiosk', () => {
  // Chromium's own fake camera (a moving test pattern), allowed without asking.
  const suite = kioskSuite({ 'session.scanner_type': 'camera', 'locale.enabled': LAYOUT_LANGUAGES }, {}, [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ]);

  it.each(LAYOUT_LANGUAGES)('in %s', async (language) => {
    let bridge!: Awaited<ReturnType<typeof busyBridge>>;
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { beforeLoad: async (page) => (bridge = await busyBridge(page)) });
    await page.getByRole('button', { name: shopperMessages[language]['language.name'] }).click();
    await page.locator('[data-testid="camera-scan"] video').waitFor();
    const problems = await walkSizes(page, `${language}-camera`, 'attract');
    bridge.busyOnce('lookupScan');
    await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('problem').waitFor();
    problems.push(...(await walkSizes(page, `${language}-camera`, 'attract-busy')));
    expect(problems).toEqual([]);
    await page.close();
  });
});
