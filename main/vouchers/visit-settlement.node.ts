import type { VisitLog } from '../logging/visit-log.std.ts';
import type { RedemptionService } from './redemption-service.node.ts';

/** The visit is over: every lock this kiosk holds is given back, and its log lines are untagged. */
export async function settleVisit(redemptions: RedemptionService, visit: VisitLog): Promise<void> {
  await redemptions.releaseAll('idle');
  visit.end();
}
