import { SerialPort } from 'serialport';
import type { SerialPortInfo } from './serial-port-info.std.ts';

/** Serial ports the OS knows, for the manager console's port picker (Linux: via udevadm; ptys are not listed). */
export async function listSerialPorts(): Promise<SerialPortInfo[]> {
  const ports = await SerialPort.list();
  return ports.map(({ path, manufacturer, vendorId, productId, serialNumber }) => ({
    path,
    manufacturer,
    vendorId,
    productId,
    serialNumber,
  }));
}
