import type { BridgeConnection } from '../bridge/dispatcher.std.ts';
import type { KioskScreen } from '../../common/contract.std.ts';

export interface KioskActivityOptions {
  /** Voucher locks in the journal: held, or being taken. */
  locksHeld: () => number;
  now?: () => number;
}

/** A shopper's call for staff (#33 §11): when, and the problem on their screen that asked for it. */
export interface StaffCall {
  since: number;
  reason: string;
}

/**
 * The one answer to "may the kiosk do something disruptive now?" (install an update, restart,
 * reload, sleep for quiet hours): idle means every screen shows the attract screen and no voucher
 * lock is in the journal. Screens report themselves (reportScreen); a screen that goes away
 * (a closed browser tab) is forgotten, so it cannot keep the kiosk busy for ever. It also keeps
 * each screen's call for staff, for the fleet's health.
 */
export class KioskActivity {
  readonly #screens = new Map<BridgeConnection, KioskScreen>();
  /** Each screen's call for staff, with what that screen showed when it called. */
  readonly #staffCalls = new Map<BridgeConnection, StaffCall & { on: KioskScreen | 'none' }>();
  readonly #listeners = new Set<() => void>();
  readonly #locksHeld: () => number;
  readonly #now: () => number;
  #attractReachedAt: number | null = null;

  constructor(options: KioskActivityOptions) {
    this.#locksHeld = options.locksHeld;
    this.#now = options.now ?? Date.now;
  }

  report(connection: BridgeConnection, screen: KioskScreen): void {
    if (screen === 'attract') this.#attractReachedAt ??= this.#now();
    if (this.#screens.get(connection) === screen) return;
    this.#screens.set(connection, screen);
    // The shopper who called has moved on (their visit ended, or another began), or a manager is here.
    if (this.#staffCalls.get(connection)?.on !== screen) this.#staffCalls.delete(connection);
    if (screen === 'console') this.#staffCalls.clear();
    this.#changed();
  }

  forget(connection: BridgeConnection): void {
    const called = this.#staffCalls.delete(connection);
    if (this.#screens.delete(connection) || called) this.#changed();
  }

  /**
   * A shopper at `connection`'s screen asked for staff; it stands until that screen shows something
   * else. False when that same call already stands: staff are not called twice for it.
   */
  callStaff(connection: BridgeConnection, reason: string): boolean {
    const standing = this.#staffCalls.get(connection);
    if (standing?.reason === reason && standing.on === this.screenOf(connection)) return false;
    this.#staffCalls.set(connection, { since: this.#now(), reason, on: this.screenOf(connection) });
    this.#changed();
    return true;
  }

  /** The oldest call for staff still standing, or null. */
  staffCall(): StaffCall | null {
    const [oldest] = [...this.#staffCalls.values()].sort((a, b) => a.since - b.since);
    return oldest ? { since: oldest.since, reason: oldest.reason } : null;
  }

  /** What each screen shows now: `visit` wins over `console`, which wins over `attract`. */
  screen(): KioskScreen | 'none' {
    const shown = new Set(this.#screens.values());
    for (const screen of ['visit', 'console', 'attract'] as const) if (shown.has(screen)) return screen;
    return 'none';
  }

  /** What one screen (bridge connection) shows now; 'none' before it reported, or once forgotten. */
  screenOf(connection: BridgeConnection): KioskScreen | 'none' {
    return this.#screens.get(connection) ?? 'none';
  }

  /** When a screen first showed the attract screen in this run (epoch ms), or null: not yet. */
  attractReachedAt(): number | null {
    return this.#attractReachedAt;
  }

  locksHeld(): number {
    return this.#locksHeld();
  }

  /** No shopper or manager at any screen, and no voucher lock held or being taken. */
  isIdle(): boolean {
    const screen = this.screen();
    return (screen === 'attract' || screen === 'none') && this.#locksHeld() === 0;
  }

  /** Called at every change of a screen; locks are not announced, so waiters also poll (whenIdle). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Resolves at the next idle moment, or false once `timeoutMs` passes first. Polls as well as
   * listening: a lock released in main changes no screen.
   */
  whenIdle({ timeoutMs, pollMs = 1_000 }: { timeoutMs: number; pollMs?: number }): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (idle: boolean) => {
        clearInterval(poll);
        clearTimeout(deadline);
        stopListening();
        resolve(idle);
      };
      const check = () => this.isIdle() && finish(true);
      const poll = setInterval(check, pollMs);
      const deadline = setTimeout(() => finish(false), timeoutMs);
      const stopListening = this.onChange(check);
    });
  }

  #changed() {
    for (const listener of this.#listeners) listener();
  }
}
