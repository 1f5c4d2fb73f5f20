import type { UsbIdentity } from '../../common/config-schema.std.ts';

/** A serial port as the manager console's port picker shows it. */
export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
}

const sameHex = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** The port that is this USB device, if it is plugged in. */
export function findPortByUsbIdentity(
  ports: readonly SerialPortInfo[],
  identity: UsbIdentity,
): SerialPortInfo | undefined {
  return ports.find(
    (port) =>
      sameHex(port.vendorId, identity.vendorId) &&
      sameHex(port.productId, identity.productId) &&
      (!identity.serialNumber || port.serialNumber === identity.serialNumber),
  );
}
