import type { LoyaltyClient } from '../loyalty/client.node.ts';

/**
 * Whether the platform knows the shop and lets these credentials act for it, as the kiosk will: the
 * platform has no "get shop", so a portal session is created for it. The shop's name, or a
 * LoyaltyError. Shared by the console's connection test and kioskctl doctor.
 */
export async function checkShop(client: LoyaltyClient, shopUuid: string): Promise<string> {
  return (await client.createPortalSession({ shop_uuid: shopUuid })).data.shop.name;
}
