import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PrinterConfig } from '../../common/config-schema.std.ts';
import { barcodesOf } from '../../test/support/escpos-stream.std.ts';
import { standInPrinterOnPty, standInPrinterOnTcp, type StandInPrinter } from '../../test/support/standin-printer.node.ts';
import { EscPosPrinter } from './escpos-printer.node.ts';
import { clearBuffers } from './escpos.std.ts';
import { openPrinterLink } from './printer-link.node.ts';
import { slipDocument } from './slip.std.ts';
import { slipFacts } from '../../test/support/factories.std.ts';
import { slipCommands } from './slip-render.node.ts';

const LINES: Record<string, () => Promise<StandInPrinter>> = {
  'TCP 9100': standInPrinterOnTcp,
  'RS-232 (a pty)': () => standInPrinterOnPty('serial'),
  'a USB printer-class device (a pty)': () => standInPrinterOnPty('usb'),
};

let standIn: StandInPrinter | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
});

function printerFor(printer: StandInPrinter): { escPos: EscPosPrinter; config: PrinterConfig } {
  const config = PrinterConfig.parse(Object.fromEntries(Object.entries(printer.settings).map(([key, value]) => [key.replace('printer.', ''), value])));
  return { escPos: new EscPosPrinter(() => openPrinterLink(config)), config };
}

function slip(config: PrinterConfig, proofCode = '4821730695'): Buffer {
  return slipCommands(slipDocument(slipFacts({ proofCode })), config);
}

describe.each(Object.keys(LINES))('an ESC/POS printer on %s', (line) => {
  it('is asked how it is, and says so: ready, out of paper, cover open', async () => {
    standIn = await LINES[line]!();
    const { escPos } = printerFor(standIn);
    await expect(escPos.check()).resolves.toMatchObject({ ready: true, state: { online: true, paperNearEnd: false } });
    standIn.setPaper('near_end');
    await expect(escPos.check()).resolves.toMatchObject({ ready: true, state: { paperNearEnd: true } });
    standIn.setPaper('out');
    await expect(escPos.check()).resolves.toMatchObject({ ready: false, reason: 'paper_out' });
    standIn.setPaper('ok');
    standIn.setCover(true);
    await expect(escPos.check()).resolves.toMatchObject({ ready: false, reason: 'cover_open' });
  });

  it('prints one slip, confirmed by the printer, whose Code 128 reads back to the proof code', async () => {
    standIn = await LINES[line]!();
    const { escPos, config } = printerFor(standIn);
    await expect(escPos.print(slip(config))).resolves.toEqual({ printed: true });
    expect(standIn.slips).toHaveLength(1);
    expect(barcodesOf(standIn.slips[0]!)).toEqual([{ format: 'code128', value: '4821730695' }]);
  });
});

describe('a slip the printer cannot finish', () => {
  it('is not started with the paper out: nothing but the status questions is sent', async () => {
    standIn = await standInPrinterOnTcp();
    const { escPos, config } = printerFor(standIn);
    standIn.setPaper('out');
    await expect(escPos.print(slip(config))).resolves.toEqual({ printed: false, reason: 'paper_out' });
    expect([...standIn.received()]).toEqual([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4]);
  });

  it('stopped by the paper running out is cleared from the printer: nothing comes out once paper is loaded', async () => {
    standIn = await standInPrinterOnTcp();
    const { escPos, config } = printerFor(standIn);
    standIn.runOutOfPaperAfter(300);
    await expect(escPos.print(slip(config))).resolves.toEqual({ printed: false, reason: 'paper_out' });
    expect(standIn.partial().length).toBeGreaterThan(0);
    await standIn.receivedCommand(clearBuffers);
    standIn.setPaper('ok');
    expect(standIn.slips).toEqual([]);
    // The next slip is whole: the stopped one left nothing behind to print first.
    await expect(escPos.print(slip(config, '1111111116'))).resolves.toEqual({ printed: true });
    expect(standIn.slips.map((printed) => barcodesOf(printed)[0]?.value)).toEqual(['1111111116']);
  });

  it('stopped by the printer going away is not printed, and the kiosk is not left waiting', async () => {
    standIn = await standInPrinterOnTcp();
    const { escPos, config } = printerFor(standIn);
    standIn.vanishAfter(400);
    await expect(escPos.print(slip(config))).resolves.toEqual({ printed: false, reason: 'unreachable' });
    await expect(escPos.check()).resolves.toMatchObject({ ready: false, reason: 'unreachable' });
  });

  it('reported by Automatic Status Back is told from the status answers', async () => {
    standIn = await standInPrinterOnTcp();
    const { escPos, config } = printerFor(standIn);
    // GS a 255: the printer reports every change by itself from now on, between the answers it gives.
    standIn.enableAutoStatus();
    standIn.runOutOfPaperAfter(300);
    await expect(escPos.print(slip(config))).resolves.toEqual({ printed: false, reason: 'paper_out' });
    await standIn.receivedCommand(clearBuffers);
    standIn.setPaper('ok');
    expect(standIn.slips).toEqual([]);
  });

  it('is never written to a file that is no device: a settings file named as the printer stays as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-not-a-printer-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"kept": true}');
    const config = PrinterConfig.parse({ kind: 'usb', path: file });
    await expect(new EscPosPrinter(() => openPrinterLink(config)).print(slip(config))).resolves.toEqual({ printed: false, reason: 'unreachable' });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"kept": true}');
  });

  it('is a printer that is not there: unreachable, at once', async () => {
    const config = PrinterConfig.parse({ kind: 'serial', path: '/dev/no-such-printer' });
    await expect(new EscPosPrinter(() => openPrinterLink(config)).check()).resolves.toMatchObject({ ready: false, reason: 'unreachable' });
  });
});
