import { z } from 'zod';

/**
 * The one scan event every scanner kind produces: serial and USB-CDC hand scanners (main
 * process), keyboard-wedge scanners and the camera (renderer), and a code the shopper typed on the
 * on-screen keyboard (or a demo sample tapped). Shopper flows only ever see this.
 */
export const ScanSource = z.enum(['serial', 'keyboard', 'camera', 'typed']);
export type ScanSource = z.infer<typeof ScanSource>;

export const Scan = z.object({
  value: z.string().min(1).max(4096),
  source: ScanSource,
  /** AIM symbology identifier without the leading `]`, e.g. `Q1` (QR), `E0` (EAN-13). */
  symbology: z.string().max(8).optional(),
  /** Epoch milliseconds when the scan completed. */
  at: z.number().int().nonnegative(),
});
export type Scan = z.infer<typeof Scan>;
