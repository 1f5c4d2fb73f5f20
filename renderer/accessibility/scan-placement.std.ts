import type { KioskSettingsView } from '../../common/contract.std.ts';
import type { Translate } from '../i18n/message-types.std.ts';

/** Where the shopper's scanning device is, in words for the screen's instruction; null where the store has not said (#33 §12). */
export function scanPlacementText(t: Translate, settings: Pick<KioskSettingsView, 'scanPlacement'>, device: 'camera' | 'hand_scanner'): string | null {
  const where = settings.scanPlacement[device];
  return where === 'unstated' ? null : t('scan.placement', { device, where });
}
