import type { BridgeResult, KioskApi } from '../../common/contract.std.ts';
import { CONSOLE_TIMEOUT_MS, type ManagerStatus } from '../../common/manager-views.std.ts';

/** The bridge calls the console's own state makes (its tabs make their own). */
export type ConsoleBridge = Pick<KioskApi, 'managerStatus' | 'unlockManager' | 'startSetup' | 'lockManager' | 'getConsoleSettings'>;

/**
 * Main keeps the console unlocked for two minutes after its last console call; a manager busy
 * with a form makes no calls, so touches renew it, at most this often.
 */
const KEEP_ALIVE_MS = 30_000;

/**
 * closed: the shopper screens; pin: the PIN pad (or, with no PIN where one is required, why it
 * stays locked); wizard: a fresh kiosk's first run (no PIN yet); open: unlocked.
 */
type ConsolePhase = 'closed' | 'pin' | 'wizard' | 'open';

/** Whether the store manager's console shows, and in which phase. The PIN itself is checked in main. */
export class ManagerConsole {
  phase = $state<ConsolePhase>('closed');
  status = $state<ManagerStatus | null>(null);
  /** Ends the shopper's visit: nothing of theirs may stay behind the console or come back after it. */
  readonly #endVisit: () => Promise<void>;
  readonly #bridge: ConsoleBridge;

  constructor(endVisit: () => Promise<void>, bridge: ConsoleBridge) {
    this.#endVisit = endVisit;
    this.#bridge = bridge;
  }

  get active(): boolean {
    return this.phase !== 'closed';
  }

  /** The corner gesture: the shopper's visit ends first, so nothing of theirs stays behind the console. */
  async open() {
    if (this.active) return;
    await this.#endVisit();
    const status = await this.#bridge.managerStatus();
    if (!status.ok) return;
    this.status = status.value;
    // Only a fresh kiosk gets the wizard: one with credentials but no PIN stays locked.
    this.phase = status.value.pinSet || status.value.setupBlocked !== null ? 'pin' : 'wizard';
  }

  /** Answers main's status (wrong PIN, attempts left, locked until) or its refusal. */
  unlock(pin: string): Promise<BridgeResult<ManagerStatus>> {
    return this.#opening(() => this.#bridge.unlockManager({ pin }));
  }

  /** A fresh kiosk's wizard, opened by the setup code (#34 §2); answered as unlock is. */
  startSetup(code: string): Promise<BridgeResult<ManagerStatus>> {
    return this.#opening(() => this.#bridge.startSetup({ code }));
  }

  async #opening(run: () => Promise<BridgeResult<ManagerStatus>>): Promise<BridgeResult<ManagerStatus>> {
    const result = await run();
    if (result.ok) {
      this.status = result.value;
      // The wizard goes on in its own phase once main opened its setup session.
      if (result.value.unlocked && this.phase === 'pin') this.phase = 'open';
    } else {
      await this.refreshStatus();
    }
    return result;
  }

  async refreshStatus() {
    const status = await this.#bridge.managerStatus();
    if (status.ok) this.status = status.value;
  }

  /** The wizard set the PIN, which unlocks the console. */
  unlocked(status: ManagerStatus) {
    this.status = status;
    this.phase = 'open';
  }

  /** Lock, idle or cancel: main forgets the unlock and the shopper screens come back. */
  async close() {
    if (!this.active) return;
    this.phase = 'closed';
    this.status = null;
    // The visit ends (its generation moves on) before the shopper screens can take a scan: one made
    // the moment they show belongs to the next visit, and no later reset may drop its answer.
    const ended = this.#endVisit();
    await this.#bridge.lockManager();
    await ended;
  }

  /**
   * A console call; when main refuses it because the unlock ran out (the kiosk slept, a restart of
   * main) or the wizard's first run ended (a PIN was set elsewhere), the PIN pad comes back instead
   * of a confusing error.
   */
  async call<T>(run: () => Promise<BridgeResult<T>>): Promise<BridgeResult<T>> {
    const result = await run();
    if (!result.ok && result.error.code === 'forbidden' && (this.phase === 'open' || this.phase === 'wizard')) {
      const wizard = this.phase === 'wizard';
      this.phase = 'pin';
      await this.refreshStatus();
      // A wizard whose setup session ran out asks for the setup code again, unless a PIN exists now.
      if (wizard && this.status?.pinSet === false) this.phase = 'wizard';
    }
    return result;
  }

  /** Closes the console after CONSOLE_TIMEOUT_MS untouched and keeps main's unlock alive meanwhile. */
  watchActivity(): () => void {
    let idle: ReturnType<typeof setTimeout>;
    let renewedAt = Date.now();
    const touched = () => {
      clearTimeout(idle);
      idle = setTimeout(() => void this.close(), CONSOLE_TIMEOUT_MS);
      const sessionOpen = this.phase === 'open' || (this.phase === 'wizard' && this.status?.unlocked === true);
      if (sessionOpen && Date.now() - renewedAt >= KEEP_ALIVE_MS) {
        renewedAt = Date.now();
        void this.call(() => this.#bridge.getConsoleSettings());
      }
    };
    const events = ['pointerdown', 'keydown'] as const;
    for (const event of events) window.addEventListener(event, touched, { capture: true });
    touched();
    return () => {
      for (const event of events) window.removeEventListener(event, touched, { capture: true });
      clearTimeout(idle);
    };
  }
}
