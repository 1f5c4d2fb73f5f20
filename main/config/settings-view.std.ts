import type { KioskSettingsView } from '../../common/contract.std.ts';
import { isDemoConfig, type KioskConfig } from '../../common/config-schema.std.ts';

/** An invalid provisioning file's problems on one line, as the screen and health say them; null for none. */
export const setupNeededText = (problems: readonly string[]) => (problems.length === 0 ? null : problems.join('; ').slice(0, 2000));

/** The settings the renderer follows (getSettings, the settingsChanged event); `provisioningProblems` from an invalid provisioning file. */
export function settingsView(current: KioskConfig, provisioningProblems: readonly string[] = []): KioskSettingsView {
  return {
    demo: isDemoConfig(current),
    setupNeeded: setupNeededText(provisioningProblems),
    modes: current.kiosk.modes,
    session: current.session,
    scannerConnection: current.scanner.connection,
    wedgeMaxAverageIntervalMs: current.scanner.wedge.maxAverageIntervalMs,
    cameraFormats: current.scanner.camera.formats,
    scanPlacement: { camera: current.scanner.camera.placement, hand_scanner: current.scanner.placement },
    idleTimeoutSeconds: current.idle.timeoutSeconds,
    idleAfterRedeemSeconds: current.idle.afterRedeemSeconds,
    proofSeconds: current.idle.proofSeconds,
    tillText: current.proof.tillText,
    registrationTerms: current.registration.termsText,
    accessibility: current.accessibility,
    locale: current.locale,
    brand: current.brand,
  };
}
