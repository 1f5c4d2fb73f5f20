import type { VisitLog } from '../logging/visit-log.std.ts';
import type { VisitIdentity } from '../shopper/visit-identity.std.ts';
import type { RedemptionService } from './redemption-service.node.ts';

/** The visit is over: every lock this kiosk holds is given back, its log lines are untagged, and who the shopper was is forgotten. */
export async function settleVisit(redemptions: RedemptionService, visit: VisitLog, identity: VisitIdentity): Promise<void> {
  await redemptions.releaseAll('idle');
  visit.end();
  identity.end();
}
