import type { IdentifiedBy } from '../../common/report-views.std.ts';

/**
 * How the shopper of the visit on screen was known, for the ledger's rows of the vouchers they
 * redeem. Main's own lookups set it (a card, a typed number, an e-mail, joining); a voucher scanned
 * before anyone was known makes it `voucher`. The visit's end forgets it.
 */
export class VisitIdentity {
  #by: IdentifiedBy | null = null;

  get by(): IdentifiedBy {
    return this.#by ?? 'voucher';
  }

  identified(by: IdentifiedBy): void {
    this.#by = by;
  }

  end(): void {
    this.#by = null;
  }
}
