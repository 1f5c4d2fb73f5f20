import type { TimelineKind } from '../../common/manager-views.std.ts';

/** The log events a manager reads, by the kind the console words them as. */
const KIND_OF_EVENT: Readonly<Record<string, TimelineKind>> = {
  'services.started': 'started',
  'services.stopped': 'stopped',
  'platform.unavailable': 'out_of_service',
  'platform.reachable': 'back_in_service',
  'scanner.unavailable': 'scanner_lost',
  'scanner.connected': 'scanner_back',
  'update.installing': 'update_installing',
  'update.failed': 'update_failed',
  'update.not_started': 'update_not_started',
  'voucher.redeem_unsettled': 'redemption_unsettled',
  'renderer.gone': 'screen_crashed',
  'staff.called': 'staff_called',
  'ledger.z_closed': 'z_closed',
  'setup.undone': 'setup_undone',
};

/**
 * The newest `limit` events of the log's lines (oldest first) that a manager can act on, with their
 * time: the console words them in the manager's language and local time, not as JSON in UTC. Lines
 * that are not a logged event (a torn last line, another program's) are passed over.
 */
export function eventTimeline(lines: readonly string[], limit: number): Array<{ at: number; kind: TimelineKind }> {
  const events: Array<{ at: number; kind: TimelineKind }> = [];
  for (const line of lines) {
    if (!line.includes('"event"')) continue;
    let parsed: { time?: unknown; event?: unknown };
    try {
      parsed = JSON.parse(line) as { time?: unknown; event?: unknown };
    } catch {
      continue;
    }
    const kind = typeof parsed.event === 'string' ? KIND_OF_EVENT[parsed.event] : undefined;
    const at = typeof parsed.time === 'string' ? Date.parse(parsed.time) : NaN;
    if (kind && Number.isFinite(at)) events.push({ at, kind });
  }
  return events.slice(-limit);
}
