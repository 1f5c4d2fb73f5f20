import type { IdentifiedBy } from '../../common/report-views.std.ts';

/**
 * How the shopper of the visit on screen was known, for the ledger's rows of the vouchers they
 * redeem. Main's own lookups set it (a card, a typed number, an e-mail, joining); a voucher scanned
 * before anyone was known makes it `voucher`. The visit's end forgets it.
 */
export class VisitIdentity {
  #by: IdentifiedBy | null = null;
  #cardLast4: string | null = null;

  get by(): IdentifiedBy {
    return this.#by ?? 'voucher';
  }

  /** The last four characters of the card the shopper was known by, for the slip; the rest is never kept. */
  get cardLast4(): string | null {
    return this.#cardLast4;
  }

  identified(by: IdentifiedBy, card?: string): void {
    this.#by = by;
    this.#cardLast4 = card ? card.slice(-4) : null;
  }

  end(): void {
    this.#by = null;
    this.#cardLast4 = null;
  }
}
