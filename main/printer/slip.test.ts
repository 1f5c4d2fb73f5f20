import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { LOCALES, PrinterConfig } from '../../common/config-schema.std.ts';
import { barcodesOf, rasterImagesOf, textOf } from '../../test/support/escpos-stream.std.ts';
import { pngOf } from '../../test/support/png.node.ts';
import { slipMessages } from './slip-messages.std.ts';
import { slipDocument } from './slip.std.ts';
import { slipFacts } from '../../test/support/factories.std.ts';
import { isPrintableLogo, slipCommands, slipPreview } from './slip-render.node.ts';

const decode = (bytes: number[], codePage: string) => iconv.decode(Buffer.from(bytes), codePage);

const epson = PrinterConfig.parse({ kind: 'network', host: '127.0.0.1' });

describe('the slip, as the printer gets it', () => {
  it.each(LOCALES)('says everything the till needs in %s, accents and € in the code page the printer is told', (locale) => {
    const t = slipMessages[locale];
    const slip = slipFacts({ locale, reward: '€5 off crème brûlée', header: 'Grüße aus Köln', footer: 'À bientôt, ¡hasta luego!' });
    const text = textOf(slipCommands(slipDocument(slip), epson), decode);
    for (const line of ['Café Zoë', '€5 off crème brûlée', t['slip.till_text'], '482 173 0695', 'lobby-1', `${t['slip.number']} 42`, '**** 0132', t['slip.single_use'], 'Grüße aus Köln', 'À bientôt, ¡hasta luego!']) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain(t['slip.duplicate']);
  });

  it('prints the proof code as a Code 128 that reads back to it, and the till’s own code as EAN-13 when it is one', () => {
    const printed = slipCommands(slipDocument(slipFacts({ posBarcode: '8710398523419' })), epson);
    expect(barcodesOf(printed)).toEqual([
      { format: 'code128', value: '4821730695' },
      { format: 'ean13', value: '8710398523419' },
    ]);
  });

  it('prints a till code that is no EAN (or has a wrong check digit) as Code 128, and leaves out one Code 128 cannot carry', () => {
    const codeOf = (posBarcode: string) => barcodesOf(slipCommands(slipDocument(slipFacts({ posBarcode })), epson)).slice(1);
    expect(codeOf('8710398523417')).toEqual([{ format: 'code128', value: '8710398523417' }]);
    expect(codeOf('SKU-1234')).toEqual([{ format: 'code128', value: 'SKU-1234' }]);
    expect(codeOf('caffè ☕')).toEqual([]);
  });

  it('marks a reprint DUPLICATE, and leaves the card out when the shopper was not known by one', () => {
    const text = textOf(slipCommands(slipDocument(slipFacts({ duplicate: true, cardLast4: null, locale: 'de' })), epson), decode);
    expect(text).toContain('DUPLIKAT');
    expect(text).not.toContain('****');
  });

  it('prints what a reward or the manager calls it literally, never as layout', () => {
    const text = textOf(slipCommands(slipDocument(slipFacts({ reward: 'A | B {code:123} `x` ^^y', header: '-', footer: '=' })), epson), decode);
    expect(text).toContain('A | B {code:123} `x` ^^y');
    expect(barcodesOf(slipCommands(slipDocument(slipFacts({ reward: '{code:123}' })), epson))).toHaveLength(1);
  });

  it('selects the code page by the number the printer’s make gives it', () => {
    // A make that numbers cp858 as 4 (where Epson's 4 is cp863): the slip says 4, and reads right in cp858 there.
    const other = PrinterConfig.parse({ kind: 'network', host: '127.0.0.1', model: 'generic', codePageNumber: 4 });
    const printed = slipCommands(slipDocument(slipFacts({ reward: 'Crème €' })), other);
    expect(printed.includes(Buffer.from([0x1b, 0x74, 4]))).toBe(true);
    expect(printed.includes(Buffer.from([0x1b, 0x74, 19]))).toBe(false);
    expect(textOf(printed, decode, { 4: 'cp858' })).toContain('Crème €');
  });

  it('fits the paper: no line of a 58 mm slip is wider than its 32 characters', () => {
    const narrow = PrinterConfig.parse({ kind: 'network', host: '127.0.0.1', paperWidthMm: 58 });
    const lines = textOf(slipCommands(slipDocument(slipFacts({ locale: 'fr' })), narrow), decode).split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(32);
  });
});

/** A 200 x 60 logo: a black frame two dots thick around white. */
const framedLogo = pngOf(200, 60, (x, y) => x < 2 || y < 2 || x >= 198 || y >= 58);
const FRAME_DOTS = 200 * 60 - 196 * 56;

describe('the shop’s logo', () => {
  it('prints at the top of the slip, dot for dot as drawn, before the shop’s name', () => {
    const printed = slipCommands(slipDocument(slipFacts({ logo: framedLogo })), epson);
    expect(rasterImagesOf(printed)).toEqual([{ width: 200, height: 60, black: FRAME_DOTS }]);
    expect(printed.indexOf(Buffer.from([0x1d, 0x38, 0x4c]))).toBeLessThan(printed.indexOf(Buffer.from('Caf', 'latin1')));
    // The image's bytes are never read as text or as another command.
    expect(textOf(printed, decode)).toContain('Café Zoë');
    expect(barcodesOf(printed)).toEqual([{ format: 'code128', value: '4821730695' }]);
    expect(rasterImagesOf(slipCommands(slipDocument(slipFacts()), epson))).toEqual([]);
  });

  it('is in the preview as the same image', () => {
    expect(slipPreview(slipDocument(slipFacts({ logo: framedLogo })), epson)).toContain(`href="data:image/png;base64,${framedLogo}"`);
  });

  it('is refused in the settings when it is no PNG, or wider than the paper prints, or too high', () => {
    const printer = (settings: Record<string, unknown>) => PrinterConfig.safeParse({ kind: 'network', host: '127.0.0.1', ...settings });
    expect(printer({ logo: framedLogo }).success).toBe(true);
    expect(printer({ logo: pngOf(576, 100, () => true) }).success).toBe(true);
    expect(printer({ logo: Buffer.from('GIF89a not a png at all').toString('base64') }).success).toBe(false);
    expect(printer({ logo: 'not base64!' }).success).toBe(false);
    expect(printer({ logo: pngOf(577, 100, () => true) }).error?.issues).toEqual([expect.objectContaining({ path: ['logo'] })]);
    expect(printer({ logo: pngOf(400, 100, () => true), paperWidthMm: 58 }).error?.issues).toEqual([expect.objectContaining({ path: ['logo'] })]);
    expect(printer({ logo: pngOf(100, 401, () => true) }).success).toBe(false);
  });

  it('is left off when only its header is a PNG', () => {
    expect(isPrintableLogo(framedLogo)).toBe(true);
    const broken = Buffer.from(framedLogo, 'base64');
    broken.fill(0, 41, 60); // inside the image data, after the header the settings check
    expect(PrinterConfig.safeParse({ logo: broken.toString('base64') }).success).toBe(true);
    expect(isPrintableLogo(broken.toString('base64'))).toBe(false);
  });

  it('is left off when its dots spell a command the printer obeys even inside an image (DLE DC4: power off)', () => {
    // One row of 16 dots: bytes 0x10 0x14, that is dots 3, 11 and 13 black.
    const powerOff = pngOf(16, 1, (x) => [3, 11, 13].includes(x));
    expect(rasterImagesOf(slipCommands(slipDocument(slipFacts({ logo: powerOff })), epson))).toEqual([{ width: 16, height: 1, black: 3 }]);
    expect(isPrintableLogo(powerOff)).toBe(false);
    expect(isPrintableLogo(pngOf(16, 1, (x) => [3, 11].includes(x)))).toBe(true);
  });
});

describe('the slip’s preview', () => {
  it('is an SVG that asks nothing of the network', () => {
    const svg = slipPreview(slipDocument(slipFacts()), epson);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:|@import/i);
    // One tspan per character: the text is what is left between the tags.
    expect(svg.replace(/<[^>]+>/g, '')).toContain('Zoë');
  });
});
