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

/** The last logo tried, and whether it prints safely: the settings hold one, checked once rather than per slip. */
let triedLogo: { logo: string; printable: boolean } | null = null;

/**
 * Whether receiptline draws `logo`, and its dots never spell a real-time command. The settings
 * check a logo's header only: a PNG broken further in would otherwise fail every slip, where it now
 * costs the logo alone. A printer obeys DLE DC4 (open the drawer, power off, clear) and DLE ENQ even
 * inside image data; the answers DLE EOT draws are harmless, the kiosk reads past them.
 */
export function isPrintableLogo(logo: string): boolean {
  if (triedLogo?.logo !== logo) triedLogo = { logo, printable: printsSafely(`{image:${logo}}`) };
  return triedLogo.printable;
}

function printsSafely(document: string): boolean {
  try {
    return !/\x10[\x05\x14]/.test(receiptline.transform(document, { command: receiptline.commands.escpos, gradient: false }));
  } catch {
    return false;
  }
}
