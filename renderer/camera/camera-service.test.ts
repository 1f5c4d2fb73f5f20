import { describe, expect, it } from 'vitest';
import { KIOSK_NATIVE_FORMATS, chooseDecoderEngine } from './camera-service.std.ts';

const allFormats = [...KIOSK_NATIVE_FORMATS, 'aztec'];
const qrOnly = ['qr_code'];
const none: string[] = [];

describe('chooseDecoderEngine', () => {
  it('1 uses the native detector whenever it reads any kiosk format', () => {
    expect(chooseDecoderEngine(1, allFormats)).toBe('native');
    expect(chooseDecoderEngine(1, qrOnly)).toBe('native');
  });

  it('1 falls back to ZXing without a native detector (Chromium on Linux and Windows)', () => {
    expect(chooseDecoderEngine(1, none)).toBe('zxing');
    expect(chooseDecoderEngine(1, ['aztec'])).toBe('zxing');
  });

  it('2 always uses ZXing', () => {
    expect(chooseDecoderEngine(2, allFormats)).toBe('zxing');
    expect(chooseDecoderEngine(2, none)).toBe('zxing');
  });

  it('3 uses native only when it reads every kiosk format', () => {
    expect(chooseDecoderEngine(3, allFormats)).toBe('native');
    expect(chooseDecoderEngine(3, KIOSK_NATIVE_FORMATS.filter((f) => f !== 'data_matrix'))).toBe('zxing');
    expect(chooseDecoderEngine(3, none)).toBe('zxing');
  });
});
