import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * The keychain entries a process has read, kept in memory so that a platform call does not wait for
 * the keychain (2–3 ms over D-Bus, one call at a time). A change is learnt two ways:
 * - in this process, every write through any store of the service drops what was read of it;
 * - from another process (kioskctl, another tool of the kiosk's), by a marker file beside the
 *   kiosk's data that every writer rewrites after its write: a marker that reads otherwise than
 *   when the entries were read drops them.
 * Only a store that has a marker keeps reads at all: one without it could not tell a change.
 */

interface Remembered {
  /** The marker's text when these entries were read. */
  marker: string;
  entries: Map<string, string | null>;
}

const byService = new Map<string, Remembered>();

function markerText(marker: string): string {
  try {
    return fs.readFileSync(marker, 'utf8');
  } catch {
    return '';
  }
}

export class SecretCache {
  constructor(
    private readonly service: string,
    /** The change marker's path; none: every read goes to the keychain. */
    private readonly marker: string | undefined,
  ) {}

  /** The remembered value of `account`, or `read` (remembered unless a change came meanwhile). */
  async read(account: string, read: () => Promise<string | null>): Promise<string | null> {
    if (this.marker === undefined) return read();
    const current = this.#current(this.marker);
    if (current.entries.has(account)) return current.entries.get(account)!;
    const value = await read();
    // A write or a marker change during the read replaced `current`: this value may be older than it.
    if (byService.get(this.service) === current) current.entries.set(account, value);
    return value;
  }

  /** After a write: nobody in this process reads the old value again, and other processes are told. */
  changed(): void {
    byService.delete(this.service);
    if (this.marker === undefined) return;
    try {
      // Owner only, as every file of the kiosk's data (it holds no secret, only a change's token).
      fs.writeFileSync(this.marker, crypto.randomUUID(), { mode: 0o600 });
    } catch {
      // No data folder (yet): no kiosk runs on it to be told.
    }
  }

  /** Reads again from the keychain from now on (the platform refused what was read). */
  forget(): void {
    byService.delete(this.service);
  }

  #current(marker: string): Remembered {
    const text = markerText(marker);
    const known = byService.get(this.service);
    if (known?.marker === text) return known;
    const fresh = { marker: text, entries: new Map<string, string | null>() };
    byService.set(this.service, fresh);
    return fresh;
  }
}
