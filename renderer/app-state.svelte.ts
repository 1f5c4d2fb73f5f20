import type { KioskSettingsView } from '../preload/contract.std.ts';
import { i18n } from './i18n/i18n.svelte';
import { kiosk } from './kiosk.dom.ts';

/** Settings as main last reported them; screens read, never write. */
class AppState {
  settings = $state<KioskSettingsView | null>(null);
  unavailable = $state(false);

  async start() {
    kiosk.on('settingsChanged', (settings) => (this.settings = settings));
    const result = await kiosk.getSettings();
    if (!result.ok) {
      this.unavailable = true;
      return;
    }
    this.settings = result.value;
    i18n.use(result.value.locale.default);
  }
}

export const appState = new AppState();
