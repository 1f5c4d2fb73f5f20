import type { FleetCommandEntry } from '../../common/manager-views.std.ts';

/** How many commands diagnostics show. */
const KEPT = 20;

/**
 * The fleet commands this kiosk took lately, newest last: when, which, its id, the topic it came
 * on (its own, a group's, the whole fleet's) and how it went. Never its payload.
 */
export class CommandLog {
  readonly #entries: FleetCommandEntry[] = [];

  add(entry: FleetCommandEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > KEPT) this.#entries.shift();
  }

  recent(): FleetCommandEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }
}
