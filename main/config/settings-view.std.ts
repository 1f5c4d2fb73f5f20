import type { KioskSettingsView } from '../../common/contract.std.ts';
import { isDemoConfig, type KioskConfig } from '../../common/config-schema.std.ts';

/** The settings the renderer follows (getSettings, the settingsChanged event). */
export function settingsView(current: KioskConfig): KioskSettingsView {
  return {
    demo: isDemoConfig(current),
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
