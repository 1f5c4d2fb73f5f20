import { kiosk } from '../kiosk.dom.ts';

/** Whether main says the kiosk sleeps (quiet hours); a renderer that loads asks, so it comes back asleep. */
class KioskSleep {
  asleep = $state(false);

  async start() {
    kiosk.on('sleep', ({ asleep }) => (this.asleep = asleep));
    const state = await kiosk.getSleepState();
    if (state.ok) this.asleep = state.value.asleep;
  }

  /** The first touch, key or scan: the screen comes back at once, and main wakes the rest. */
  wake() {
    this.asleep = false;
    void kiosk.wake();
  }
}

export const kioskSleep = new KioskSleep();
