/**
 * Code 128, the symbology every till scanner reads by default (#31 §2): a value as the widths of
 * its bars and spaces, in modules. Digits in an even count go in code set C, two to a symbol: half
 * the width of set B, so each module can be wider on the same screen, which an imager reads better.
 * Anything else printable goes in set B.
 */

/** Each symbol's bar, space, bar, space, bar, space widths (ISO/IEC 15417), by symbol value; 103–105 start A, B, C. */
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232',
] as const;

const START_B = 104;
const START_C = 105;
/** The stop symbol: its final bar of 2 modules closes the code. */
const STOP = '2331112';

/** The symbol values of `value`: start, data, checksum (start + each value times its place, mod 103); the stop is apart. */
export function code128Symbols(value: string): number[] {
  if (value === '') throw new Error('Code 128: nothing to encode');
  const data = /^(\d\d)+$/.test(value) ? [START_C, ...(value.match(/\d\d/g) ?? []).map(Number)] : [START_B, ...[...value].map(setBValue)];
  const checksum = data.reduce((sum, symbol, place) => sum + symbol * Math.max(place, 1), 0) % 103;
  return [...data, checksum];
}

/** The run widths of `value`'s whole code, bar first and bar last, without its quiet zones. */
export function code128Modules(value: string): number[] {
  return [...code128Symbols(value).map((symbol) => PATTERNS[symbol]!), STOP].flatMap((pattern) => [...pattern].map(Number));
}

function setBValue(character: string): number {
  const code = character.codePointAt(0)!;
  if (code < 32 || code > 126) throw new Error(`Code 128 set B has no ${JSON.stringify(character)}`);
  return code - 32;
}
