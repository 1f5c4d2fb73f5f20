import { describe, expect, it } from 'vitest';
import { findPortByUsbIdentity, type SerialPortInfo } from './serial-port-info.std.ts';

const ports: SerialPortInfo[] = [
  { path: '/dev/ttyS0' },
  { path: '/dev/ttyACM0', vendorId: '05E0', productId: '1200', serialNumber: 'S-1' },
  { path: '/dev/ttyACM1', vendorId: '05e0', productId: '1200', serialNumber: 'S-2' },
];

describe('findPortByUsbIdentity', () => {
  it('matches vendor and product ids case-insensitively', () => {
    expect(findPortByUsbIdentity(ports, { vendorId: '05e0', productId: '1200' })?.path).toBe('/dev/ttyACM0');
    // config.json says null for "no serial number to go by".
    expect(findPortByUsbIdentity(ports, { vendorId: '05E0', productId: '1200', serialNumber: null })?.path).toBe('/dev/ttyACM0');
  });

  it('uses the serial number to tell identical scanners apart', () => {
    const identity = { vendorId: '05e0', productId: '1200', serialNumber: 'S-2' };
    expect(findPortByUsbIdentity(ports, identity)?.path).toBe('/dev/ttyACM1');
  });

  it('finds nothing when the device is not plugged in', () => {
    expect(findPortByUsbIdentity(ports, { vendorId: '0c2e', productId: '0b61' })).toBeUndefined();
    const identity = { vendorId: '05e0', productId: '1200', serialNumber: 'S-3' };
    expect(findPortByUsbIdentity(ports, identity)).toBeUndefined();
  });
});
