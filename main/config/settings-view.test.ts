import { describe, expect, it } from 'vitest';
import { KioskSettingsView } from '../../common/contract.std.ts';
import { KioskConfig } from '../../common/config-schema.std.ts';
import { settingsView } from './settings-view.std.ts';

describe('settingsView', () => {
  it('shows the renderer the camera formats it reads (scanner.camera.formats)', () => {
    const config = KioskConfig.parse({ scanner: { camera: { formats: ['ean13', 'qr'] } } });
    const view = settingsView(config);
    expect(view.cameraFormats).toEqual(['ean13', 'qr']);
    expect(KioskSettingsView.parse(view)).toEqual(view);
  });

  it('shows the default formats when none are configured', () => {
    expect(settingsView(KioskConfig.parse({})).cameraFormats).toEqual(['qr', 'code128', 'ean13']);
  });
});
