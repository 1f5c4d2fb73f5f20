/**
 * Reads an ESC/POS byte stream as a printer would: text, and commands with their parameters
 * (never a parameter byte mistaken for a command). Covers the commands receiptline and the kiosk
 * send; an unknown ESC, FS or GS command is taken as having no parameters.
 */

export type EscPosToken = { kind: 'text'; bytes: number[] } | { kind: 'command'; bytes: Buffer; name: string };

const ESC = 0x1b;
const FS = 0x1c;
const GS = 0x1d;
const DLE = 0x10;

/** Parameter bytes after `<prefix><letter>`, for the fixed-length commands. */
const FIXED: Record<number, Record<string, number>> = {
  [ESC]: { '@': 0, '!': 1, ' ': 1, '-': 1, '2': 0, '3': 1, E: 1, G: 1, J: 1, M: 1, R: 1, a: 1, d: 1, t: 1, '{': 1, V: 1, $: 2, '\\': 2, p: 3 },
  [FS]: { '.': 0, '&': 0, '-': 1, C: 1, S: 2 },
  [GS]: { '!': 1, B: 1, H: 1, L: 2, W: 2, a: 1, b: 1, f: 1, h: 1, r: 1, w: 1 },
};

/** The length of the command at `at` (which starts with ESC, FS, GS or DLE), or null when it runs past the end. */
function commandLength(bytes: Uint8Array, at: number): number | null {
  const prefix = bytes[at]!;
  const letter = bytes[at + 1];
  if (letter === undefined) return null;
  const char = String.fromCharCode(letter);
  let length: number;
  if (prefix === DLE) length = char === '\x14' ? 10 : 3; // DLE DC4 fn 8 + 7, DLE EOT n, DLE ENQ n
  else if (prefix === GS && char === 'k') length = barcodeLength(bytes, at);
  else if (prefix === GS && char === 'V') length = (bytes[at + 2] ?? 0) >= 65 ? 4 : 3;
  else if (prefix === GS && char === 'v') length = 8 + (bytes[at + 4]! + bytes[at + 5]! * 256) * (bytes[at + 6]! + bytes[at + 7]! * 256);
  else if (prefix === GS && char === '8') length = 7 + bytes[at + 3]! + bytes[at + 4]! * 2 ** 8 + bytes[at + 5]! * 2 ** 16 + bytes[at + 6]! * 2 ** 24;
  else if ((prefix === GS || prefix === FS) && char === '(') length = 5 + bytes[at + 3]! + bytes[at + 4]! * 256;
  else length = 2 + (FIXED[prefix]?.[char] ?? 0);
  return at + length <= bytes.length && !Number.isNaN(length) ? length : null;
}

/** GS k m: m 65 and up carries a length byte, below 65 its data ends with NUL. */
function barcodeLength(bytes: Uint8Array, at: number): number {
  const m = bytes[at + 2]!;
  if (m >= 65) return 4 + bytes[at + 3]!;
  const end = bytes.indexOf(0, at + 3);
  return end < 0 ? Number.NaN : end - at + 1;
}

export function escPosTokens(stream: Uint8Array): EscPosToken[] {
  const tokens: EscPosToken[] = [];
  let text: number[] = [];
  for (let at = 0; at < stream.length; ) {
    const byte = stream[at]!;
    if (byte === ESC || byte === FS || byte === GS || byte === DLE) {
      const length = commandLength(stream, at);
      if (length === null) break;
      if (text.length) tokens.push({ kind: 'text', bytes: text });
      text = [];
      const bytes = Buffer.from(stream.subarray(at, at + length));
      tokens.push({ kind: 'command', bytes, name: commandName(bytes) });
      at += length;
    } else {
      text.push(byte);
      at++;
    }
  }
  if (text.length) tokens.push({ kind: 'text', bytes: text });
  return tokens;
}

const PREFIX_NAMES: Record<number, string> = { [ESC]: 'ESC', [FS]: 'FS', [GS]: 'GS', [DLE]: 'DLE' };

/** `GS k`, `ESC t`, `DLE EOT`: how ESC/POS manuals name a command. */
function commandName(bytes: Buffer): string {
  const second = bytes[1]!;
  const letter = bytes[0] === DLE ? ({ 0x04: 'EOT', 0x05: 'ENQ', 0x14: 'DC4' } as Record<number, string>)[second] ?? '?' : String.fromCharCode(second);
  return `${PREFIX_NAMES[bytes[0]!]} ${letter}`;
}

/**
 * The code page each ESC t number selects on an Epson printer. The stand-in printer is an Epson
 * (`printer.model: epson`), unless a test gives it another table.
 */
export const EPSON_CODE_PAGES: Readonly<Record<number, string>> = { 0: 'cp437', 3: 'cp860', 4: 'cp863', 5: 'cp865', 16: 'cp1252', 18: 'cp852', 19: 'cp858' };

/** The text of a stream, line by line, each byte read in the code page the last ESC t chose. */
export function textOf(stream: Uint8Array, decode: (bytes: number[], codePage: string) => string, codePages = EPSON_CODE_PAGES): string {
  let codePage: string | undefined = codePages[0];
  let text = '';
  for (const token of escPosTokens(stream)) {
    if (token.kind === 'text') text += codePage ? decode(token.bytes, codePage) : asciiOnly(token.bytes);
    else if (token.name === 'ESC t') codePage = codePages[token.bytes[2]!];
  }
  return text;
}

/** Text in a code page the table does not know: its ASCII, and � for the rest. */
const asciiOnly = (bytes: number[]) => bytes.map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : '\ufffd')).join('');

export interface RasterImage {
  width: number;
  height: number;
  /** The dots printed black. */
  black: number;
}

/** Every raster image a stream stores to print (GS 8 L … fn 112), as the printer would draw it. */
export function rasterImagesOf(stream: Uint8Array): RasterImage[] {
  return escPosTokens(stream)
    .filter((token): token is Extract<EscPosToken, { kind: 'command' }> => token.kind === 'command' && token.name === 'GS 8' && token.bytes[8] === 112)
    .map(({ bytes }) => {
      const width = bytes[13]! + bytes[14]! * 256;
      const height = bytes[15]! + bytes[16]! * 256;
      const black = [...bytes.subarray(17)].reduce((dots, byte) => dots + bitsSet(byte), 0);
      return { width, height, black };
    });
}

const bitsSet = (byte: number) => [...byte.toString(2)].filter((bit) => bit === '1').length;

export interface PrintedBarcode {
  format: 'code128' | 'ean13' | 'ean8';
  value: string;
}

/** Every barcode a stream prints (GS k), its value read back from the command's data. */
export function barcodesOf(stream: Uint8Array): PrintedBarcode[] {
  return escPosTokens(stream)
    .filter((token): token is Extract<EscPosToken, { kind: 'command' }> => token.kind === 'command' && token.name === 'GS k')
    .map(({ bytes }) => {
      const m = bytes[2]!;
      const data = m >= 65 ? bytes.subarray(4) : bytes.subarray(3, bytes.length - 1);
      if (m === 73) return { format: 'code128' as const, value: code128Value(data) };
      if (m === 67 || m === 2) return { format: 'ean13' as const, value: ean13WithCheck(data.toString('latin1')) };
      if (m === 68 || m === 3) return { format: 'ean8' as const, value: data.toString('latin1') };
      throw new Error(`GS k ${m}: a symbology this reader does not know`);
    });
}

/** Code 128 as ESC/POS sends it: `{A`, `{B`, `{C` switch the code set; in set C each byte is two digits. */
function code128Value(data: Uint8Array): string {
  let set = 'B';
  let value = '';
  for (let at = 0; at < data.length; at++) {
    if (data[at] === 0x7b /* { */ && at + 1 < data.length) {
      const next = String.fromCharCode(data[at + 1]!);
      if ('ABC'.includes(next)) {
        set = next;
        at++;
        continue;
      }
    }
    value += set === 'C' ? String(data[at]).padStart(2, '0') : String.fromCharCode(data[at]!);
  }
  return value;
}

/** An EAN-13 sent without its check digit gets the one the printer adds. */
function ean13WithCheck(digits: string): string {
  if (digits.length === 13) return digits;
  const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return digits + String((10 - (sum % 10)) % 10);
}
