import type { DemoSamples } from '../../common/shopper-views.std.ts';
import type { SandboxManifest } from '../../sandbox/sandbox.node.ts';

const MAX_VOUCHERS = 4;

/**
 * What "Try a sample card" offers: each demo shopper's card, and a few active vouchers nobody
 * owns (they show the voucher screen without a card). Names are the sandbox's demo names.
 */
export function demoSamples(manifest: Pick<SandboxManifest, 'contacts' | 'vouchers' | 'promotions'>): DemoSamples {
  const cards = manifest.contacts.flatMap((contact) => {
    const card = contact.identifiers[0];
    return card ? [{ value: card, name: contact.firstname ?? contact.email }] : [];
  });
  const promotionName = new Map(manifest.promotions.map((promotion) => [promotion.uuid, promotion.name]));
  const vouchers = manifest.vouchers
    .filter((voucher) => voucher.status === 'ACTIVE' && voucher.contact_uuid === null)
    .slice(0, MAX_VOUCHERS)
    .map((voucher) => ({ value: voucher.code, name: promotionName.get(voucher.promotion_uuid) ?? voucher.code }));
  return { cards, vouchers };
}
