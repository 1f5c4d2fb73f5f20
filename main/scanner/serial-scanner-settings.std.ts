import { z } from 'zod';
import { UsbIdentity } from '../../common/config-schema.std.ts';

/**
 * How a hand scanner ends a scan: a terminator byte sequence, or (for scanners that send none)
 * a pause of `idleMs` after the last byte.
 */
export const LineTerminator = z.union([
  z.enum(['CR', 'LF', 'CRLF']),
  z.object({ idleMs: z.number().int().min(5).max(2000).default(50) }),
]);
export type LineTerminator = z.output<typeof LineTerminator>;

export const SerialScannerSettings = z.object({
  path: z.string().min(1),
  baudRate: z.number().int().min(300).max(921_600).default(9600),
  dataBits: z.union([z.literal(7), z.literal(8)]).default(8),
  parity: z.enum(['none', 'even', 'odd']).default('none'),
  stopBits: z.union([z.literal(1), z.literal(2)]).default(1),
  terminator: LineTerminator.default('CR'),
  usb: UsbIdentity.nullish(),
});
export type SerialScannerSettings = z.output<typeof SerialScannerSettings>;
export type SerialScannerSettingsInput = z.input<typeof SerialScannerSettings>;
