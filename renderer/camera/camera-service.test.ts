import { describe, expect, it } from 'vitest';
import { CAMERA_FORMATS, DEFAULT_CAMERA_FORMATS } from '../../common/config-schema.std.ts';
import { nativeFormats } from './camera-formats.std.ts';
import { chooseDecoderEngine } from './camera-service.std.ts';

const allNative = [...nativeFormats(CAMERA_FORMATS), 'aztec'];
const qrOnly = ['qr_code'];
const none: string[] = [];
const kiosk = DEFAULT_CAMERA_FORMATS;

describe('chooseDecoderEngine', () => {
  it('1 uses the native detector whenever it reads any kiosk format', () => {
    expect(chooseDecoderEngine(1, kiosk, allNative)).toBe('native');
    expect(chooseDecoderEngine(1, kiosk, qrOnly)).toBe('native');
  });

  it('1 falls back to ZXing without a native detector (Chromium on Linux and Windows)', () => {
    expect(chooseDecoderEngine(1, kiosk, none)).toBe('zxing');
    expect(chooseDecoderEngine(1, kiosk, ['aztec'])).toBe('zxing');
    expect(chooseDecoderEngine(1, ['ean8'], qrOnly)).toBe('zxing');
  });

  it('2 always uses ZXing', () => {
    expect(chooseDecoderEngine(2, kiosk, allNative)).toBe('zxing');
    expect(chooseDecoderEngine(2, kiosk, none)).toBe('zxing');
  });

  it('3 uses native only when it reads every format the kiosk reads', () => {
    expect(chooseDecoderEngine(3, CAMERA_FORMATS, allNative)).toBe('native');
    expect(chooseDecoderEngine(3, CAMERA_FORMATS, allNative.filter((f) => f !== 'data_matrix'))).toBe('zxing');
    // Data Matrix missing does not matter to a kiosk that does not read it.
    expect(chooseDecoderEngine(3, kiosk, ['qr_code', 'code_128', 'ean_13'])).toBe('native');
    expect(chooseDecoderEngine(3, kiosk, none)).toBe('zxing');
  });
});
