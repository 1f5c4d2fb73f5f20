import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scan } from '../../common/scan.std.ts';
import { MAX_LINE_BYTES } from './line-framer.std.ts';
import { SerialScanDecoder, type DecodedLine } from './serial-scan-decoder.std.ts';
import type { LineTerminator } from './serial-scanner-settings.std.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const values = (lines: DecodedLine[]) =>
  lines.map((line) => (line.kind === 'scan' ? line.scan.value : `<${line.reason}>`));

describe('SerialScanDecoder', () => {
  it('turns lines into serial scans stamped with the arrival time', () => {
    const decoder = new SerialScanDecoder('CR');
    expect(decoder.push(bytes(']E04006381333931\r'), 1234)).toEqual([
      { kind: 'scan', scan: { value: '4006381333931', symbology: 'E0', source: 'serial', at: 1234 } },
    ]);
  });

  it('reads CRLF split between chunks as one line end, without a blank scan', () => {
    const decoder = new SerialScanDecoder('CRLF');
    const out = [...decoder.push(bytes('A1\r'), 0), ...decoder.push(bytes('\nB2\r'), 1)];
    expect(values([...out, ...decoder.push(bytes('\n'), 2)])).toEqual(['A1', 'B2']);
  });

  it('copes with a CRLF scanner set to CR', () => {
    const decoder = new SerialScanDecoder('CR');
    expect(values(decoder.push(bytes('A1\r\nB2\r\n'), 0))).toEqual(['A1', 'B2']);
  });

  it('reports drops: overlong, invalid UTF-8 and repeats', () => {
    const decoder = new SerialScanDecoder('LF');
    const stream = [...bytes(`${'9'.repeat(MAX_LINE_BYTES + 10)}\nOK\n`), 0xfe, 0x0a, ...bytes('OK\n')];
    expect(values(decoder.push(new Uint8Array(stream), 0))).toEqual([
      '<overlong>',
      'OK',
      '<invalid-utf8>',
      '<duplicate>',
    ]);
  });

  it('flushes an idle-terminated line', () => {
    const decoder = new SerialScanDecoder({ idleMs: 30 });
    expect(decoder.push(bytes('12'), 0)).toEqual([]);
    expect(decoder.push(bytes('34'), 5)).toEqual([]);
    expect(values(decoder.flush(40))).toEqual(['1234']);
  });

  // Random bytes, biased towards the ones that matter: terminators, controls, the AIM bracket,
  // UTF-8 lead and continuation bytes, and long runs that hit the cap.
  const interestingByte = fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(0x0d, 0x0a, 0x00, 0x1b, 0x7f, 0x5d, 0x51, 0x31, 0x20, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff),
  );
  const textLine = fc
    .tuple(fc.string({ unit: 'binary', maxLength: 24 }), fc.constantFrom('\r', '\n', '\r\n', ''))
    .map(([text, end]) => bytes(text + end));
  const chunk = fc.oneof(
    textLine,
    fc.uint8Array({ maxLength: 64 }),
    fc.array(interestingByte, { maxLength: 64 }).map((list) => Uint8Array.from(list)),
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 3 * MAX_LINE_BYTES })).map(
      ([byte, length]) => new Uint8Array(length).fill(byte),
    ),
  );
  const terminator = fc.constantFrom<LineTerminator>('CR', 'LF', 'CRLF', { idleMs: 50 });

  it('fuzz: never throws, never buffers past the cap, emits only valid printable scans', () => {
    let scans = 0;
    fc.assert(
      fc.property(terminator, fc.array(chunk, { maxLength: 40 }), fc.boolean(), (end, chunks, flushEach) => {
        const decoder = new SerialScanDecoder(end);
        let now = 0;
        for (const bytes of chunks) {
          now += 7;
          const out = decoder.push(bytes, now);
          if (flushEach) out.push(...decoder.flush(now));
          expect(decoder.bufferedBytes).toBeLessThanOrEqual(MAX_LINE_BYTES);
          for (const line of out) {
            if (line.kind !== 'scan') continue;
            scans++;
            expect(Scan.parse(line.scan)).toEqual(line.scan);
            expect(line.scan.value).toMatch(/^\S(.*\S)?$/su);
            expect(line.scan.value).not.toMatch(/[\p{C}\uFFFD]/u);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(scans, 'the fuzz must reach the scan path').toBeGreaterThan(100);
  });
});
