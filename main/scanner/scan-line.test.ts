import { describe, expect, it } from 'vitest';
import { parseScanLine } from './scan-line.std.ts';

const parse = (input: string | number[]) =>
  parseScanLine(typeof input === 'string' ? new TextEncoder().encode(input) : new Uint8Array(input));

describe('parseScanLine', () => {
  it('strips control bytes and surrounding blanks', () => {
    expect(parse('\x02 1234\x00567\t\r\x03')).toEqual({ ok: true, value: '1234567' });
  });

  it('keeps UTF-8 text and inner spaces', () => {
    expect(parse('Zoë café 12')).toEqual({ ok: true, value: 'Zoë café 12' });
  });

  it('drops a line that is not UTF-8 instead of passing a damaged value on', () => {
    expect(parse([0x31, 0x32, 0xff, 0x33])).toEqual({ ok: false, reason: 'invalid-utf8' });
    expect(parse([0x31, 0xc3])).toEqual({ ok: false, reason: 'invalid-utf8' });
  });

  it('reports lines with nothing printable as empty', () => {
    expect(parse('')).toEqual({ ok: false, reason: 'empty' });
    expect(parse('\r\n\x00 \t')).toEqual({ ok: false, reason: 'empty' });
    expect(parse(']Q1')).toEqual({ ok: false, reason: 'empty' });
  });

  it.each([
    [']Q1https://example.test/c/42', 'Q1', 'https://example.test/c/42'],
    [']E04006381333931', 'E0', '4006381333931'],
    [']C1TEST-1', 'C1', 'TEST-1'],
    [']d2010123', 'd2', '010123'],
    ['\x02]A0 ABC', 'A0', 'ABC'],
  ])('takes the AIM identifier off %j', (line, symbology, value) => {
    expect(parse(line)).toEqual({ ok: true, value, symbology });
  });

  it('leaves a bracket that is no AIM identifier in the value', () => {
    expect(parse(']12345')).toEqual({ ok: true, value: ']12345' });
    expect(parse('A]Q1')).toEqual({ ok: true, value: 'A]Q1' });
  });
});
