import type { KioskApi } from '../common/contract.std.ts';

declare global {
  interface Window {
    readonly kiosk: KioskApi;
  }
}

/** The renderer's only door to the outside world, installed by whichever host runs it. */
export const kiosk: KioskApi = window.kiosk;
