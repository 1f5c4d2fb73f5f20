import { UsbIdentity } from '../../common/config-schema.std.ts';

/** `scanner.serial.usb`: what main finds the scanner by after a replug; null for by path only. */
export type UsbSetting = UsbIdentity | null;

/**
 * The USB identity to save with a port the manager picks from the list, so the scanner is found
 * again when a replug renumbers its path; null for a port without one (a built-in serial port, a pty).
 */
export function usbIdentityOf(port: { vendorId?: string; productId?: string; serialNumber?: string }): UsbSetting {
  const { vendorId, productId, serialNumber } = port;
  // An empty serial number is none; the schema wants null for that.
  const parsed = UsbIdentity.safeParse({ vendorId, productId, serialNumber: serialNumber || null });
  return parsed.success ? parsed.data : null;
}
