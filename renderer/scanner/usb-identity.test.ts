import { describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import { usbIdentityOf } from './usb-identity.std.ts';

describe('usbIdentityOf a listed port', () => {
  it('takes vendor, product and serial number of a USB scanner, in a form the config accepts', () => {
    const usb = usbIdentityOf({ vendorId: '05e0', productId: '1200', serialNumber: 'S-1' });
    expect(usb).toEqual({ vendorId: '05e0', productId: '1200', serialNumber: 'S-1' });
    expect(KioskConfig.parse({ scanner: { serial: { usb } } }).scanner.serial.usb).toEqual(usb);
  });

  it('keeps a scanner without a serial number identifiable by vendor and product', () => {
    expect(usbIdentityOf({ vendorId: '0C2E', productId: '0b61' })).toEqual({ vendorId: '0C2E', productId: '0b61', serialNumber: null });
    expect(usbIdentityOf({ vendorId: '0c2e', productId: '0b61', serialNumber: '' })).toEqual({ vendorId: '0c2e', productId: '0b61', serialNumber: null });
  });

  it('is null for a port that is no USB device, or reports ids the config cannot hold', () => {
    expect(usbIdentityOf({})).toBeNull();
    expect(usbIdentityOf({ vendorId: '05e0' })).toBeNull();
    expect(usbIdentityOf({ vendorId: '5e0', productId: '1200' })).toBeNull();
  });
});
