import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import { withDotted } from '../../common/dotted-keys.std.ts';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { barcodesOf, rasterImagesOf } from '../../test/support/escpos-stream.std.ts';
import { pngOf } from '../../test/support/png.node.ts';
import { standInPrinterOnTcp, type StandInPrinter } from '../../test/support/standin-printer.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import type { Ledger } from '../ledger/ledger.node.ts';
import { SlipService, type SlipRedemption } from './slip-service.node.ts';

let standIn: StandInPrinter | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
  closeTestLedgers();
});

function serviceWith(settings: Record<string, unknown>): { slips: SlipService; ledger: Ledger; previewDir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-slips-'));
  const config = KioskConfig.parse(withDotted({}, settings));
  const ledger = testLedger(dir);
  const previewDir = path.join(dir, 'slips');
  return { slips: new SlipService({ config: () => config, ledger, previewDir, kioskId: () => 'lobby-1', logger: silentLogger }), ledger, previewDir };
}

/** A redemption on record in `ledger`: its proof code and row come from the ledger itself. */
function redeemed(ledger: Ledger): SlipRedemption {
  const attempt = { attemptId: 'a-1', voucherUuid: 'v-1', voucherCode: 'COFFEE-1', voucherName: 'Free coffee', promotionName: null, contactUuid: null, identifiedBy: 'card' as const };
  ledger.record({ kind: 'locked', attempt });
  const row = ledger.record({ kind: 'redeemed', attempt, redeemedAt: '2026-11-28T10:00:00Z' })!;
  return { reward: 'Free coffee', proofCode: row.proofCode!, at: row.at, seq: row.seq, cardLast4: '0132', locale: 'en', attributes: { product_barcode: '8710398523419' } };
}

describe('the slip of a redemption', () => {
  it('is printed once, with the till’s barcode the manager named, and on record as printed', async () => {
    standIn = await standInPrinterOnTcp();
    const { slips, ledger } = serviceWith({ ...standIn.settings, 'printer.posBarcodeAttribute': 'product_barcode' });
    const redemption = redeemed(ledger);
    await expect(slips.plan()).resolves.toEqual({ printer: 'ready' });
    await expect(slips.printProof(redemption)).resolves.toEqual({ slip: 'printed' });
    expect(standIn.slips.map((slip) => barcodesOf(slip))).toEqual([
      [
        { format: 'code128', value: redemption.proofCode },
        { format: 'ean13', value: '8710398523419' },
      ],
    ]);
    expect(ledger.slipsOf(redemption.proofCode)).toEqual([expect.objectContaining({ redemptionSeq: redemption.seq, duplicate: false, outcome: 'printed', reason: null })]);
    expect(ledger.rowsForProof(redemption.proofCode).at(-1)?.seq).toBe(redemption.seq);
  });

  it('is on record as not printed, and why, when the paper is out: the shopper is told before, and after', async () => {
    standIn = await standInPrinterOnTcp();
    const { slips, ledger } = serviceWith(standIn.settings);
    const redemption = redeemed(ledger);
    standIn.setPaper('out');
    await expect(slips.plan()).resolves.toEqual({ printer: 'unavailable', issue: 'paper_out' });
    expect(slips.required).toBe(false);
    await expect(slips.printProof(redemption)).resolves.toEqual({ slip: 'not_printed', issue: 'paper_out' });
    expect(ledger.slipsOf(redemption.proofCode)).toEqual([expect.objectContaining({ outcome: 'not_printed', reason: 'paper_out' })]);
  });

  it('tells the shopper the slip came out even when the ledger cannot record that it did', async () => {
    standIn = await standInPrinterOnTcp();
    const { slips, ledger } = serviceWith(standIn.settings);
    const redemption = redeemed(ledger);
    ledger.close();
    await expect(slips.printProof(redemption)).resolves.toEqual({ slip: 'printed' });
    expect(standIn.slips).toHaveLength(1);
  });

  it('is printed again as a DUPLICATE, each reprint on record beside the first', async () => {
    standIn = await standInPrinterOnTcp();
    const { slips, ledger } = serviceWith(standIn.settings);
    const redemption = redeemed(ledger);
    await slips.printProof(redemption);
    await expect(slips.reprint(redemption.proofCode)).resolves.toMatchObject({ duplicate: true, outcome: 'printed', cardLast4: '0132' });
    expect(standIn.slips).toHaveLength(2);
    const [first, again] = standIn.slips.map((printed) => printed.toString('latin1'));
    expect(again).toContain('DUPLICATE');
    expect(first).not.toContain('DUPLICATE');
    // The same slip otherwise: the reward, the card's last four, the proof's barcode.
    expect(again).toContain('Free coffee');
    expect(again).toContain('**** 0132');
    expect(barcodesOf(standIn.slips[1]!)).toEqual(barcodesOf(standIn.slips[0]!));
    expect(ledger.slipsOf(redemption.proofCode).map(({ duplicate }) => duplicate)).toEqual([false, true]);
    await expect(slips.reprint('0000000000')).resolves.toBeNull();
  });
});

describe('the slip’s logo', () => {
  it('is printed on every slip; one broken past its header is left off, the slip printed all the same', async () => {
    standIn = await standInPrinterOnTcp();
    const logo = pngOf(120, 40, (x, y) => (x + y) % 2 === 0);
    const broken = Buffer.from(logo, 'base64');
    broken.fill(0, 41, 60);
    const printed = async (settings: Record<string, unknown>) => {
      const { slips, ledger } = serviceWith({ ...standIn!.settings, ...settings });
      await expect(slips.printProof(redeemed(ledger))).resolves.toEqual({ slip: 'printed' });
      return rasterImagesOf(standIn!.slips.at(-1)!);
    };
    await expect(printed({ 'printer.logo': logo })).resolves.toEqual([{ width: 120, height: 40, black: 2400 }]);
    await expect(printed({ 'printer.logo': broken.toString('base64') })).resolves.toEqual([]);
    expect(standIn.slips).toHaveLength(2);
  });
});

describe('the printer’s health', () => {
  it('is unknown until asked, then what the printer said, slips and checks alike', async () => {
    standIn = await standInPrinterOnTcp();
    const { slips, ledger } = serviceWith(standIn.settings);
    expect(slips.health()).toEqual({ kind: 'network', state: 'unknown', checkedAt: null });
    standIn.setPaper('near_end');
    await slips.check();
    expect(slips.health()).toMatchObject({ kind: 'network', state: 'paper_near_end', checkedAt: expect.any(Number) });
    standIn.setPaper('out');
    await slips.printProof(redeemed(ledger));
    expect(slips.health().state).toBe('paper_out');
    standIn.setPaper('ok');
    await slips.check();
    expect(slips.health().state).toBe('ready');
  });

  it('is none without a printer to ask', () => {
    expect(serviceWith({ 'printer.kind': 'preview' }).slips.health()).toEqual({ kind: 'preview', state: 'none', checkedAt: null });
  });
});

describe('no printer', () => {
  it('as the demo has it (preview): each slip is kept as an SVG in the data folder, on record as a preview', async () => {
    const { slips, ledger, previewDir } = serviceWith({ 'printer.kind': 'preview' });
    const redemption = redeemed(ledger);
    await expect(slips.plan()).resolves.toEqual({ printer: 'none' });
    await expect(slips.printProof(redemption)).resolves.toEqual({ slip: 'none' });
    const saved = fs.readdirSync(previewDir);
    expect(saved).toEqual([expect.stringContaining(redemption.proofCode)]);
    expect(fs.readFileSync(path.join(previewDir, saved[0]!), 'utf8')).toBe(slips.lastPreview());
    expect(ledger.slipsOf(redemption.proofCode)).toEqual([expect.objectContaining({ outcome: 'preview' })]);
  });

  it('at all (none): nothing is printed, kept or recorded', async () => {
    const { slips, ledger, previewDir } = serviceWith({});
    const redemption = redeemed(ledger);
    await expect(slips.printProof(redemption)).resolves.toEqual({ slip: 'none' });
    expect(fs.existsSync(previewDir)).toBe(false);
    expect(ledger.slipsOf(redemption.proofCode)).toEqual([]);
  });
});
