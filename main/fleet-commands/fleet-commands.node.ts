import type { ConfigStore } from '../config/config-store.node.ts';
import { keptFromFleet } from '../config/config-keys.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { UpdateService } from '../update/update-service.node.ts';
import type { FleetCommandHandler } from '../fleet/fleet-client.node.ts';
import { CommandFailed, ConfigSetArgs, type FleetCommandName, ReportArgs, RestartArgs } from '../fleet/fleet-messages.std.ts';
import type { Ledger } from '../ledger/ledger.node.ts';
import type { ShiftReport } from '../../common/report-views.std.ts';
import { localTimeOf } from '../ledger/business-day.std.ts';

/** What the fleet reads of one doctor's check. */
interface DoctorCheckSeen {
  name: string;
  status: string;
  detail?: string;
}

export interface FleetCommandOptions {
  config: ConfigStore;
  logger: Logger;
  /** The doctor's checks; one whose status is FAIL makes the answer not ok. */
  doctor: () => Promise<readonly DoctorCheckSeen[]>;
  /** The redacted diagnostics, as the console exports them. */
  diagnostics: () => Promise<unknown>;
  /** Restart and reload wait for its idle moment: the attract screen, and no voucher lock; screenshot needs the attract screen. */
  activity: Pick<KioskActivity, 'whenIdle' | 'isIdle' | 'screen' | 'onChange'>;
  restart: () => void;
  /** Absent where the host cannot reload without a restart: the command answers `unsupported`. */
  reload?: () => void;
  /** Absent where the kiosk has no update service: update-check answers `unsupported`. */
  update?: Pick<UpdateService, 'checkNow' | 'state'>;
  /** How long update-check waits for the check (and a short download) before it answers with the state so far (default 20 s). */
  updateAnswerMs?: number;
  /** The window as a PNG; absent where the host cannot take one: the command answers `unsupported`. */
  screenshot?: () => Promise<Buffer>;
  /** The redemption ledger, read by `report`. */
  ledger: Pick<Ledger, 'xReport' | 'zReports' | 'zReport'>;
  /** Epoch ms: how old a doctor's check may be to answer again (default Date.now). */
  now?: () => number;
  /** How long restart and reload wait for idle before they give up (default 10 min); polled each second. */
  idleWaitMs?: number;
  idlePollMs?: number;
}

/** The commands a fleet broker may send this kiosk; each returns its answer or throws a plain-words error. */
export function fleetCommands(options: FleetCommandOptions): Record<FleetCommandName, FleetCommandHandler> {
  const { config, logger, update } = options;
  const whenIdle = (action: string, run: () => void): FleetCommandHandler => async (request, progress) => {
    const { force } = RestartArgs.parse(request);
    if (!force && !options.activity.isIdle()) {
      // The fleet hears at once that it was taken, not only when the visit ends.
      progress.waiting('a visit, the console or a voucher lock is on: it runs once the kiosk is idle');
      await waitForIdle(options);
    }
    logger.info(`${action} requested by the fleet`, { force });
    // After the answer is on its way: a restart ends this process.
    setImmediate(() => {
      try {
        run();
      } catch (error) {
        logger.error(`the fleet's ${action} failed`, { error: String(error) });
      }
    });
    return { [action]: 'scheduled' };
  };
  return {
    doctor: recentDoctor(options),
    diagnostics: async () => options.diagnostics(),
    'config-set': async (request) => {
      const parsed = ConfigSetArgs.safeParse(request);
      if (!parsed.success) throw new Error('config-set needs "values": an object of dotted keys and values');
      const kept = Object.keys(parsed.data.values).find(keptFromFleet);
      if (kept !== undefined) throw new Error(`refused: ${kept} is not set over the fleet (the PIN from the console or kioskctl, the broker from provisioning or kioskctl)`);
      // All or nothing: setMany checks every key (and refuses provisioning-locked ones) before writing.
      config.setMany(parsed.data.values);
      logger.info('settings changed by the fleet', { keys: Object.keys(parsed.data.values) });
      return { changed: Object.keys(parsed.data.values) };
    },
    restart: whenIdle('restart', options.restart),
    reload: options.reload ? whenIdle('reload', options.reload) : unsupported('this host cannot reload its page without a restart: send restart'),
    screenshot: options.screenshot ? attractScreenshot(options.activity, options.screenshot) : unsupported('this host cannot take a screenshot'),
    'update-check': update ? () => checkForUpdate(options, update) : unsupported('this kiosk does not update itself (no update service)'),
    report: async (request) => shiftReport(options.ledger, request),
  };
}

/** What a host cannot do is a failed answer, never an ok one the operator might take for done. */
const unsupported =
  (why: string): FleetCommandHandler =>
  async () =>
    raise(`unsupported: ${why}`);

/** The X, or the Z the request names by number or by the local day it was closed on. */
function shiftReport(ledger: FleetCommandOptions['ledger'], request: Record<string, unknown>): ShiftReport {
  const { id: _id, expiresAt: _expires, ...fields } = request;
  const parsed = ReportArgs.safeParse(fields);
  if (!parsed.success) throw new Error('report takes no field (the X), "z": a Z number, or "day": YYYY-MM-DD');
  const args = parsed.data;
  if ('z' in args) return ledger.zReport(args.z) ?? raise(`there is no Z ${args.z}`);
  if (!('day' in args)) return ledger.xReport();
  const closed = ledger.zReports().filter((z) => localTimeOf(Date.parse(z.closedAt)).startsWith(args.day));
  const last = closed.at(-1);
  return (last && ledger.zReport(last.zNumber!)) ?? raise(`no Z was closed on ${args.day}`);
}

const raise = (message: string): never => {
  throw new Error(message);
};

/** A doctor over the fleet reuses one made this recently: each makes a portal session at the platform. */
export const DOCTOR_REUSE_MS = 60_000;

function recentDoctor({ doctor, now = Date.now }: FleetCommandOptions) {
  let last: { at: number; checks: readonly DoctorCheckSeen[] } | null = null;
  return async () => {
    if (!last || now() - last.at >= DOCTOR_REUSE_MS) last = { at: now(), checks: await doctor() };
    const answer = { checks: last.checks, checkedAt: last.at };
    const failing = last.checks.filter((check) => check.status === 'FAIL');
    // The failing checks on the answer's one line; the whole doctor still travels with it.
    if (failing.length > 0) throw new CommandFailed(failing.map(({ name, detail }) => `${name} FAIL${detail ? `: ${detail}` : ''}`).join('; '), answer);
    return answer;
  };
}

/** Checks now; a download may take longer than a fleet wants to wait: then the answer says `downloading`. */
async function checkForUpdate({ logger, updateAnswerMs = 20_000 }: FleetCommandOptions, update: NonNullable<FleetCommandOptions['update']>) {
  logger.info('update check requested by the fleet');
  let timer: NodeJS.Timeout | undefined;
  const answerBy = new Promise<void>((resolve) => (timer = setTimeout(resolve, updateAnswerMs)));
  await Promise.race([update.checkNow(), answerBy]).finally(() => clearTimeout(timer));
  return { update: update.state() };
}

async function waitForIdle({ activity, idleWaitMs = 600_000, idlePollMs = 1_000 }: FleetCommandOptions) {
  const idle = await activity.whenIdle({ timeoutMs: idleWaitMs, pollMs: idlePollMs });
  if (!idle) throw new Error('the kiosk stayed busy (a visit, the console or a voucher lock); send again later, or with "force": true');
}

/**
 * A screenshot that cannot hold shopper data: taken only on the attract screen, and released only
 * if no screen changed while it was taken (a visit that began mid-capture discards it).
 */
function attractScreenshot(activity: FleetCommandOptions['activity'], capture: () => Promise<Buffer>) {
  return async () => {
    if (activity.screen() !== 'attract') throw new Error('refused: a visit is on the screen');
    let changed = false;
    const stopWatching = activity.onChange(() => (changed = true));
    try {
      const png = await capture();
      if (changed || activity.screen() !== 'attract') throw new Error('refused: the screen left the attract screen during the capture');
      return { screenshot: 'taken', mimeType: 'image/png', base64: png.toString('base64') };
    } finally {
      stopWatching();
    }
  };
}
