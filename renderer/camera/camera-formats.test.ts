import { describe, expect, it } from 'vitest';
import { CAMERA_FORMATS, DEFAULT_CAMERA_FORMATS, KioskConfig } from '../../common/config-schema.std.ts';
import { nativeFormats, nativeFormatSymbology, zxingFormats } from './camera-formats.std.ts';
import { zxingSymbology } from './decoder-protocol.std.ts';

describe('camera formats', () => {
  it('default to what cards and vouchers carry: QR, Code 128, EAN-13', () => {
    expect(KioskConfig.parse({}).scanner.camera.formats).toEqual(['qr', 'code128', 'ean13']);
    expect(zxingFormats(DEFAULT_CAMERA_FORMATS)).toEqual(['QRCode', 'Code128', 'EAN13']);
    expect(nativeFormats(DEFAULT_CAMERA_FORMATS)).toEqual(['qr_code', 'code_128', 'ean_13']);
  });

  it('map every config name to ZXing and BarcodeDetector names, in the configured order', () => {
    expect(zxingFormats(CAMERA_FORMATS)).toEqual(['QRCode', 'Code128', 'EAN13', 'EAN8', 'Code39', 'DataMatrix']);
    expect(nativeFormats(CAMERA_FORMATS)).toEqual(['qr_code', 'code_128', 'ean_13', 'ean_8', 'code_39', 'data_matrix']);
    expect(zxingFormats(['ean13', 'qr'])).toEqual(['EAN13', 'QRCode']);
  });

  it('give every native format the identifier ZXing reports for it', () => {
    // The ZXing side of this table is asserted against real codes in test/e2e/camera.e2e.test.ts.
    expect(nativeFormats(CAMERA_FORMATS).map(nativeFormatSymbology)).toEqual(['Q1', 'C0', 'E0', 'E4', 'A0', 'd1']);
    expect(nativeFormatSymbology('aztec')).toBeUndefined();
  });

  it('are validated: known names, at least one, each once', () => {
    const formats = (value: unknown) => KioskConfig.safeParse({ scanner: { camera: { formats: value } } }).success;
    expect(formats(['qr'])).toBe(true);
    expect(formats([...CAMERA_FORMATS])).toBe(true);
    expect(formats([])).toBe(false);
    expect(formats(['qr', 'qr'])).toBe(false);
    expect(formats(['QRCode'])).toBe(false);
    expect(formats('qr')).toBe(false);
  });
});

describe('symbology identifiers', () => {
  it('strips the bracket from ZXing identifiers', () => {
    expect(zxingSymbology(']Q1')).toBe('Q1');
    expect(zxingSymbology(']E0')).toBe('E0');
    expect(zxingSymbology('')).toBeUndefined();
  });
});
