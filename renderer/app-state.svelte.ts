import type { KioskScreen, KioskSettingsView } from '../common/contract.std.ts';
import { i18n } from './i18n/i18n.svelte';
import { ManagerConsole } from './console/console.svelte';
import { kiosk } from './kiosk.dom.ts';
import { CONFIRM_SECONDS, Visit } from './visit/visit.svelte';
import { Speech } from './accessibility/speech.svelte.ts';
import { ShopperChoices } from './accessibility/shopper-choices.svelte.ts';

/** What this tab showed last, kept across a reload: only a tab that was in a visit apologises for it. */
const SHOWN_SCREEN_KEY = 'kiosk.shownScreen';

/** Settings and service state as main last reported them, and the one visit in progress. */
class AppState {
  settings = $state<KioskSettingsView | null>(null);
  /** The bridge itself failed: nothing can work. */
  unavailable = $state(false);
  /** The loyalty platform answers; when not, the kiosk is out of service until it does. */
  serviceAvailable = $state(true);
  /**
   * A serial scanner main reports connected (a keyboard-wedge one is invisible until it types);
   * null until main first says, so a start does not flash "the scanner is not working".
   */
  serialScannerConnected = $state<boolean | null>(null);
  readonly choices = new ShopperChoices({
    speech: new Speech(kiosk, () => i18n.locale, () => [{ text: i18n.t('visit.ended') }]),
    language: i18n,
    storeLocale: () => this.settings?.locale.default ?? null,
  });
  readonly visit = new Visit({
    bridge: kiosk,
    storage: sessionStorage,
    choices: this.choices,
    confirmSeconds: () => CONFIRM_SECONDS * this.timeFactor,
    settings: () => this.settings,
    now: () => Date.now(),
    locale: () => i18n.locale,
  });

  /** Every timeout is this many times longer in speech mode (accessibility.speechTimeoutFactor). */
  get timeFactor(): number {
    return this.choices.speech.on ? (this.settings?.accessibility.speechTimeoutFactor ?? 1) : 1;
  }

  async start() {
    kiosk.on('settingsChanged', (settings) => this.#applySettings(settings));
    kiosk.on('serviceStatus', (status) => this.#setAvailable(status.available));
    kiosk.on('openPortalSession', ({ uuid }) => void this.visit.reopenSession(uuid));
    kiosk.on('scannerStatus', (status) => (this.serialScannerConnected = status.state === 'connected'));
    // A headset plugged in is a shopper asking to hear the kiosk (ADA 707.5): speech starts, and says how the keys work.
    kiosk.on('headsetPlugged', () => this.choices.speech.start());
    void kiosk.getScannerStatus().then((status) => status.ok && (this.serialScannerConnected = status.value.state === 'connected'));
    const result = await kiosk.getSettings();
    if (!result.ok) {
      this.unavailable = true;
      return;
    }
    // Before the settings, which paint the first screen: a cut-short visit's apology comes first.
    if ((await this.#visitInterrupted()) && !this.visit.rememberedSession()) this.visit.showInterrupted();
    this.settings = result.value;
    i18n.offered = result.value.locale.enabled;
    i18n.use(result.value.locale.default);
    const status = await kiosk.getServiceStatus();
    if (status.ok) this.#setAvailable(status.value.available);
    // A reload (crash recovery) in the middle of a hosted session goes back to it.
    const remembered = this.visit.rememberedSession();
    if (remembered) await this.visit.reopenSession(remembered);
  }

  /** Main waits for the attract screen (and no lock) before it updates, restarts or sleeps. */
  reportScreen(screen: KioskScreen) {
    sessionStorage.setItem(SHOWN_SCREEN_KEY, screen);
    void kiosk.reportScreen({ screen });
  }

  /** Main settled a visit this tab was showing when it crashed or reloaded. */
  async #visitInterrupted(): Promise<boolean> {
    const wasInVisit = sessionStorage.getItem(SHOWN_SCREEN_KEY) === 'visit';
    const started = await kiosk.screenStarted();
    return wasInVisit && started.ok && started.value.visitInterrupted;
  }

  /**
   * Whether a shopper can scan with a hand scanner now: a keyboard-wedge one may be plugged in at
   * any time (the kiosk cannot tell), a serial one when main has it connected.
   */
  get handScannerUsable(): boolean {
    return this.settings?.scannerConnection === 'keyboard' || this.serialScannerConnected !== false;
  }

  /** Idle, outage or a console opened: the visit ends. */
  async endVisit() {
    await this.visit.reset();
  }

  /**
   * Between visits a new default language shows at once; a shopper mid-visit keeps theirs unless
   * the store no longer offers it.
   */
  #applySettings(settings: KioskSettingsView) {
    this.settings = settings;
    i18n.offered = settings.locale.enabled;
    if (this.visit.screen.name === 'attract' || !settings.locale.enabled.includes(i18n.locale)) i18n.use(settings.locale.default);
  }

  #setAvailable(available: boolean) {
    if (!available && this.serviceAvailable) void this.endVisit();
    this.serviceAvailable = available;
  }
}

export const appState = new AppState();

/** The store manager's console: opening and closing it ends the shopper's visit. */
export const managerConsole = new ManagerConsole(() => appState.endVisit(), kiosk);
