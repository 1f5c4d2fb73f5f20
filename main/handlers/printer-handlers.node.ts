import type { Locale } from '../../common/config-schema.std.ts';
import { BridgeFailure, type CallHandlers } from '../bridge/dispatcher.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SlipService } from '../printer/slip-service.node.ts';

export interface PrinterHandlersOptions {
  slips: SlipService;
  /** The store's language: the console's test slip and reprints are in it. */
  storeLocale: () => Locale;
  logger: Logger;
}

/** The console's printer section: a test slip, the last slip's preview, and a reprint (#31 §3). */
export function createPrinterHandlers({ slips, storeLocale, logger }: PrinterHandlersOptions) {
  return {
    printTestSlip: async () => {
      const outcome = await slips.testPrint(storeLocale());
      logger.info('test slip printed from the console', { event: 'printer.test_slip', printed: outcome.printed, reason: outcome.printed ? null : outcome.reason });
      return { printed: outcome.printed, reason: outcome.printed ? null : outcome.reason };
    },
    getLastSlip: async () => ({ svg: slips.lastPreview() }),
    listSlips: async ({ proofCode }) => slips.slipsOf(proofCode),
    reprintSlip: async ({ proofCode }) => {
      const record = await slips.reprint(proofCode);
      if (!record) throw new BridgeFailure('not_found', 'this kiosk printed no slip with that proof code');
      logger.info('slip reprinted from the console', { event: 'printer.reprinted', seq: record.redemptionSeq, outcome: record.outcome });
      return record;
    },
  } satisfies Partial<CallHandlers>;
}
