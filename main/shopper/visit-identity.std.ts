import type { Voucher } from '../../api/vouchers.std.ts';
import type { IdentifiedBy } from '../../common/report-views.std.ts';
import type { KnownVoucher } from '../vouchers/redemption-outcomes.std.ts';

/**
 * How the shopper of the visit on screen was known, for the ledger's rows of the vouchers they
 * redeem. Main's own lookups set it (a card, a typed number, an e-mail, joining); a voucher scanned
 * before anyone was known makes it `voucher`. With it, the vouchers the platform gave the visit
 * (listed, or found by their code): one of them is locked without being found again. The visit's
 * end forgets both.
 */
export class VisitIdentity {
  #by: IdentifiedBy | null = null;
  #cardLast4: string | null = null;
  #unlinkedCard: string | null = null;
  #joinedContact: string | null = null;
  readonly #vouchers = new Map<string, KnownVoucher>();

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

  /** The last card main looked up, when the platform knows it as belonging to nobody: joining may link it. */
  lookedUp(unlinkedCard: string | null): void {
    this.#unlinkedCard = unlinkedCard;
  }

  /** The contact made by joining on this visit. */
  joined(contactUuid: string): void {
    this.#by = 'joined';
    this.#cardLast4 = null;
    this.#joinedContact = contactUuid;
  }

  /** The unlinked card looked up and the contact that then joined, once; null unless this visit has both. */
  takeCardToLink(): { card: string; contactUuid: string } | null {
    const [card, contactUuid] = [this.#unlinkedCard, this.#joinedContact];
    this.#unlinkedCard = null;
    return card && contactUuid ? { card, contactUuid } : null;
  }

  /** Vouchers the platform gave this visit: what main showed the shopper, never what the screen says of them. */
  gave(vouchers: readonly Voucher[]): void {
    for (const { uuid, code, name, promotion } of vouchers) this.#vouchers.set(uuid, { uuid, code, name, promotionName: promotion.name });
  }

  /** The voucher the platform gave this visit under `uuid`, when its code is `code`; else undefined (find it). */
  given(uuid: string, code: string): KnownVoucher | undefined {
    const known = this.#vouchers.get(uuid);
    return known?.code === code ? known : undefined;
  }

  end(): void {
    this.#by = null;
    this.#cardLast4 = null;
    this.#unlinkedCard = null;
    this.#joinedContact = null;
    this.#vouchers.clear();
  }
}
