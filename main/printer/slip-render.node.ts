import receiptline from 'receiptline';
import type { PrinterConfig } from '../../common/config-schema.std.ts';

/** Characters per line of the paper widths (font A, 12 dots a character). */
const CHARACTERS_PER_LINE: Record<PrinterConfig['paperWidthMm'], number> = { 58: 32, 80: 48 };

/** receiptline's command set for each model the settings name. */
const COMMAND_SETS: Record<PrinterConfig['model'], keyof typeof receiptline.commands> = {
  epson: 'escpos',
  citizen: 'citizen',
  sii: 'sii',
  fit: 'fit',
  generic: 'generic',
};

type Layout = Pick<PrinterConfig, 'paperWidthMm' | 'model' | 'codePage' | 'codePageNumber'>;

/**
 * The slip as the printer's own commands. The code page is the one the settings name, selected by
 * the number this printer knows it by: makes number their code pages differently (ESC t n).
 */
export function slipCommands(document: string, layout: Layout): Buffer {
  const commandSet = receiptline.commands[COMMAND_SETS[layout.model]];
  const command =
    layout.codePageNumber === null
      ? commandSet
      : { ...commandSet, codepage: { ...commandSet.codepage, [layout.codePage]: `\x1bt${String.fromCharCode(layout.codePageNumber)}` } };
  const printed = receiptline.transform(document, {
    cpl: CHARACTERS_PER_LINE[layout.paperWidthMm],
    encoding: layout.codePage,
    gradient: false,
    command,
  });
  return Buffer.from(printed, 'latin1');
}

/**
 * The slip as an SVG, as wide as the paper. receiptline's SVG asks a web font service for its
 * typeface: that request is cut, the preview uses the system's monospace font.
 */
export function slipPreview(document: string, layout: Pick<PrinterConfig, 'paperWidthMm'>): string {
  const svg = receiptline.transform(document, { cpl: CHARACTERS_PER_LINE[layout.paperWidthMm], encoding: 'cp858' });
  return svg.replace(/@import url\([^)]*\);?/g, '').replace(/font-family="[^"]*"/g, 'font-family="monospace"');
}

/** The last logo tried, and whether receiptline could draw it: the settings hold one, checked once rather than per slip. */
let triedLogo: { logo: string; readable: boolean } | null = null;

/**
 * Whether receiptline can draw `logo`. The settings check a logo's header only: a PNG broken
 * further in would otherwise fail every slip, where it now costs the logo alone.
 */
export function isReadableLogo(logo: string): boolean {
  if (triedLogo?.logo !== logo) triedLogo = { logo, readable: drawsWithoutError(`{image:${logo}}`) };
  return triedLogo.readable;
}

function drawsWithoutError(document: string): boolean {
  try {
    receiptline.transform(document, { command: receiptline.commands.escpos });
    return true;
  } catch {
    return false;
  }
}
