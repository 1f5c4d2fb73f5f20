import type { Logger } from '../../main/logging/logger.std.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { openLedger, type Ledger } from '../../main/ledger/ledger.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

const opened = new Set<Ledger>();

/** The real ledger in the data folder `dir`, as a kiosk there would open it (UTC days starting at 04:00). Close with closeTestLedgers. */
export function testLedger(dir: string, { logger = silentLogger, now }: { logger?: Logger; now?: () => number } = {}): Ledger {
  const ledger = openLedger({
    file: dataFiles(dir).ledger,
    logger,
    ...(now && { now }),
    kioskId: () => 'test-kiosk',
    shopUuid: () => null,
    businessDay: () => ({ startsAt: '04:00', timeZone: 'UTC' }),
    retentionDays: () => 400,
  });
  opened.add(ledger);
  return ledger;
}

/** Closes every ledger testLedger opened. */
export function closeTestLedgers(): void {
  for (const ledger of opened) ledger.close();
  opened.clear();
}
