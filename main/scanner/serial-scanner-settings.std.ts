import { z } from 'zod';
import { SerialScannerConfig } from '../../common/config-schema.std.ts';

/**
 * What a SerialScanner runs on: `scanner.serial` (common/config-schema.std.ts) with its path set,
 * and the line's end as the decoder takes it: a terminator, or (for scanners that send none) a
 * pause of `idleMs` after the last byte.
 */
export const SerialScannerSettings = SerialScannerConfig.extend({ path: z.string().min(1) }).transform(({ terminator, idleGapMs, ...port }) => ({
  ...port,
  terminator: terminator === 'idle' ? { idleMs: idleGapMs } : terminator,
}));
export type SerialScannerSettings = z.output<typeof SerialScannerSettings>;
export type SerialScannerSettingsInput = z.input<typeof SerialScannerSettings>;

/** How a hand scanner ends a scan: a terminator byte sequence, or a pause after the last byte. */
export type LineTerminator = SerialScannerSettings['terminator'];
