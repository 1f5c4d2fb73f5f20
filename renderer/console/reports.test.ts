import { beforeAll, describe, expect, it } from 'vitest';
import { shiftReport } from '../../test/support/factories.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import type { ExportedFile } from './download.dom.ts';
import { ReportsPanel } from './reports.svelte.ts';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';

beforeAll(() => i18n.loadCatalogue('console'));

const report = shiftReport;
const Z1 = report({ kind: 'z', shift: 1, zNumber: 1 });
const PROOF = '4821730695';
const FIRST_SLIP = { proofCode: PROOF, redemptionSeq: 7, at: '2026-11-28T10:00:00.000Z', duplicate: false, outcome: 'not_printed' as const, reason: 'paper_out', cardLast4: null, posBarcode: null };
const REPRINT = { ...FIRST_SLIP, at: '2026-11-28T10:05:00.000Z', duplicate: true, outcome: 'printed' as const, reason: null };
const SAVED: ExportedFile = { fileName: 'shift.csv', content: 'seq\r\n', delivery: 'saved', savedTo: '/home/kiosk/shift.csv' };

function panelWith() {
  const bridge = new FakeBridge({
    getXReport: ok('getXReport', report()),
    reconcileOpenShift: ok('reconcileOpenShift', report({ reconciliation: { state: 'done', checked: 1, vouchers: 1, mismatches: [], resolved: 0, finishedAt: Z1.closedAt } })),
    listZReports: ok('listZReports', [{ zNumber: 1, shift: 1, openedAt: Z1.openedAt, closedAt: Z1.closedAt, redemptions: 3 }]),
    getZReport: ok('getZReport', Z1),
    closeShift: ok('closeShift', report({ kind: 'z', zNumber: 2 })),
    findRedemptions: ok('findRedemptions', []),
    exportLedgerCsv: ok('exportLedgerCsv', SAVED),
    reprintSlip: ok('reprintSlip', REPRINT),
    listSlips: ok('listSlips', [FIRST_SLIP]),
  });
  const handedOver: ExportedFile[] = [];
  const panel = new ReportsPanel({ bridge: bridge.api, call: (run) => run(), handOver: (file) => void handedOver.push(file) });
  return { bridge, panel, handedOver };
}

describe('the reports panel', () => {
  it('loads the X and the closed shifts, and opens a Z by its number', async () => {
    const { panel, bridge } = panelWith();
    await panel.load();
    expect(panel.x?.redemptions).toBe(3);
    expect(panel.zs.map((z) => z.zNumber)).toEqual([1]);
    await panel.showZ(1);
    expect(panel.shown).toEqual(Z1);
    expect(bridge.calls.filter((entry) => entry.name === 'getZReport').map((entry) => entry.input)).toEqual([{ zNumber: 1 }]);
  });

  it('closes the shift: the Z is shown at once and the X and the list load afresh; a refusal is said, nothing shown', async () => {
    const { panel, bridge } = panelWith();
    await panel.closeShift();
    expect(panel.shown?.zNumber).toBe(2);
    expect(bridge.calls.map((entry) => entry.name)).toEqual(['closeShift', 'getXReport', 'listZReports']);

    const busy = panelWith();
    busy.bridge.answer('closeShift', refused('busy', 'a voucher lock is held'));
    await busy.panel.closeShift();
    expect(busy.panel.shown).toBeNull();
    expect(busy.panel.problem).toContain('a voucher lock is held');
  });

  it('prints a proven redemption’s slip again, only once it is proven, and says what became of each of its slips', async () => {
    const { panel, bridge } = panelWith();
    await panel.reprint();
    expect(bridge.calls).toEqual([]);
    const redeemed = { seq: 7, kind: 'redeemed' as const, attemptId: 'a-1', at: '2026-11-28T10:00:00.000Z', localAt: '2026-11-28T11:00:00.000+01:00', voucherCode: 'COFFEE-1', voucherName: 'Free coffee', promotionName: null, identifiedBy: 'card' as const, reason: null, platformCode: null, settledBy: 'redeem' as const, proofCode: PROOF };
    bridge.answer('findRedemptions', ok('findRedemptions', [redeemed]));
    await panel.find(PROOF);
    expect(panel.slips).toEqual([FIRST_SLIP]);
    bridge.answer('listSlips', ok('listSlips', [FIRST_SLIP, REPRINT]));
    await panel.reprint();
    expect(bridge.calls.slice(-2)).toEqual([
      { name: 'reprintSlip', input: { proofCode: PROOF } },
      { name: 'listSlips', input: { proofCode: PROOF } },
    ]);
    expect(panel.reprinted).toMatchObject({ duplicate: true, outcome: 'printed' });
    expect(panel.slips.map((slip) => slip.duplicate)).toEqual([false, true]);
    // Another search forgets it: the next proof's reprint has not happened.
    await panel.find(PROOF);
    expect(panel.reprinted).toBeNull();
  });

  it('looks up a code, trimmed, and never an empty one', async () => {
    const { panel, bridge } = panelWith();
    await panel.find('   ');
    expect(bridge.calls).toEqual([]);
    await panel.find(' COFFEE-1 ');
    expect(bridge.calls).toEqual([{ name: 'findRedemptions', input: { code: 'COFFEE-1' } }]);
    expect(panel.found).toEqual([]);
  });

  it('says a slip is genuine when its proof code finds the redemption it was made for (#31 §1)', async () => {
    const { panel, bridge } = panelWith();
    const event = { seq: 2, attemptId: 'a', at: Z1.closedAt, localAt: Z1.closedAt, voucherCode: 'COFFEE-1', voucherName: 'Free coffee', promotionName: null, identifiedBy: null, reason: null, platformCode: null, settledBy: 'redeem' as const };
    bridge.answer('findRedemptions', ok('findRedemptions', [{ ...event, seq: 1, kind: 'locked', settledBy: null, proofCode: null }, { ...event, kind: 'redeemed', proofCode: '0000005724' }]));
    await panel.find('0000005724');
    expect(panel.proven).toMatchObject({ seq: 2, proofCode: '0000005724' });
    // The same events found by the voucher's code prove no slip.
    await panel.find('COFFEE-1');
    expect(panel.proven).toBeNull();
  });

  it('shows the X checked against the platform, and says a refusal', async () => {
    const { panel } = panelWith();
    await panel.reconcile();
    expect(panel.x?.reconciliation).toMatchObject({ state: 'done', checked: 1 });
    const away = panelWith();
    away.bridge.answer('reconcileOpenShift', refused('unavailable', 'the platform did not answer'));
    await away.panel.reconcile();
    expect(away.panel.problem).toContain('the platform did not answer');
    expect(away.panel.busy).toBe(false);
  });

  it('hands the CSV over and says where it went; of a Z, its own shift; of a range of days', async () => {
    const { panel, bridge, handedOver } = panelWith();
    await panel.exportCsv();
    await panel.exportCsv({ shift: 1 });
    await panel.exportCsv({ fromDay: '2026-11-01', toDay: '2026-11-27' });
    expect(bridge.calls.map((entry) => entry.input)).toEqual([{}, { shift: 1 }, { fromDay: '2026-11-01', toDay: '2026-11-27' }]);
    expect(handedOver).toEqual([SAVED, SAVED, SAVED]);
    expect(panel.exported).toContain('/home/kiosk/shift.csv');
  });
});
