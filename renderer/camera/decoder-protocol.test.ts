import { describe, expect, it } from 'vitest';
import { KIOSK_NATIVE_FORMATS } from './camera-service.std.ts';
import { nativeFormatSymbology, zxingSymbology } from './decoder-protocol.std.ts';

describe('symbology identifiers', () => {
  it('strips the bracket from ZXing identifiers', () => {
    expect(zxingSymbology(']Q1')).toBe('Q1');
    expect(zxingSymbology(']E0')).toBe('E0');
    expect(zxingSymbology('')).toBeUndefined();
  });

  it('gives every native kiosk format the identifier ZXing reports for it', () => {
    // The ZXing side of this table is asserted against real codes in test/e2e/camera.e2e.test.ts.
    expect(KIOSK_NATIVE_FORMATS.map(nativeFormatSymbology)).toEqual(['Q1', 'E0', 'E4', 'C0', 'A0', 'd1']);
    expect(nativeFormatSymbology('aztec')).toBeUndefined();
  });
});
