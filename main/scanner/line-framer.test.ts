import { describe, expect, it } from 'vitest';
import { LineFramer, MAX_LINE_BYTES, type FramedLine } from './line-framer.std.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const texts = (lines: FramedLine[]) =>
  lines.map((line) => (line.kind === 'line' ? new TextDecoder().decode(line.bytes) : line.kind));

describe('LineFramer', () => {
  it('ends lines at CR, at LF, and at the LF of CRLF (keeping the CR for the control stripper)', () => {
    expect(texts(new LineFramer('CR').push(bytes('a\rb\r')))).toEqual(['a', 'b']);
    expect(texts(new LineFramer('LF').push(bytes('a\nb\n')))).toEqual(['a', 'b']);
    expect(texts(new LineFramer('CRLF').push(bytes('a\r\nb\r\n')))).toEqual(['a\r', 'b\r']);
  });

  it('joins a line written in pieces and holds an unfinished one', () => {
    const framer = new LineFramer('CRLF');
    expect(texts(framer.push(bytes('12')))).toEqual([]);
    expect(texts(framer.push(bytes('34\r')))).toEqual([]);
    expect(framer.bufferedBytes).toBe(5);
    expect(texts(framer.push(bytes('\n56')))).toEqual(['1234\r']);
    expect(framer.bufferedBytes).toBe(2);
  });

  it('with an idle terminator, only flush() ends a line', () => {
    const framer = new LineFramer({ idleMs: 50 });
    expect(texts(framer.push(bytes('ab\rc\n')))).toEqual([]);
    expect(texts(framer.flush())).toEqual(['ab\rc\n']);
    expect(texts(framer.flush())).toEqual([]);
  });

  it('keeps a line of exactly the cap', () => {
    const framer = new LineFramer('CR');
    const [line] = framer.push(bytes(`${'x'.repeat(MAX_LINE_BYTES)}\r`));
    expect(line?.kind === 'line' && line.bytes.length).toBe(MAX_LINE_BYTES);
  });

  it('reports an overlong line once, skips the rest of it and never buffers past the cap', () => {
    const framer = new LineFramer('CR');
    const seen: FramedLine[] = [];
    for (let i = 0; i < 3 * MAX_LINE_BYTES; i += 100) {
      seen.push(...framer.push(bytes('y'.repeat(100))));
      expect(framer.bufferedBytes).toBeLessThanOrEqual(MAX_LINE_BYTES);
    }
    seen.push(...framer.push(bytes('tail\rgood\r')));
    expect(texts(seen)).toEqual(['overlong', 'good']);
  });

  it('an idle flush also ends skipping an overlong line', () => {
    const framer = new LineFramer({ idleMs: 50 });
    expect(texts(framer.push(bytes('z'.repeat(MAX_LINE_BYTES + 1))))).toEqual(['overlong']);
    expect(texts(framer.flush())).toEqual([]);
    framer.push(bytes('next'));
    expect(texts(framer.flush())).toEqual(['next']);
  });
});
