import type { BridgeError } from '../../common/contract.std.ts';
import type { ExportedFile } from './download.dom.ts';
import { i18n } from '../i18n/i18n.svelte';
import { defaultConfig } from '../../common/config-schema.std.ts';
import { IDLE_WARNING_SECONDS } from '../visit/idle-policy.std.ts';

/** A failed console call in plain words; the keychain and the platform have their own sentence. */
export function failureText(error: BridgeError): string {
  if (error.code === 'unavailable') return i18n.t('console.problem.unavailable', { message: error.message });
  if (['network', 'timeout', 'server', 'maintenance'].includes(error.code)) return i18n.t('console.problem.connection');
  return i18n.t('console.problem.failed', { message: error.message });
}

/** The message `id` (built from a name main sends, such as a scanner state), else `fallback`. */
export function named(id: string, fallback: string): string {
  return i18n.has(id) ? i18n.t(id) : fallback;
}

/** The numbers help texts speak of, from where the kiosk takes them: a help never says 10 s where the kiosk gives 20. */
const DEFAULTS = defaultConfig();
const HELP_VALUES: Readonly<Record<string, Record<string, number>>> = {
  'idle.timeoutSeconds': { warning: IDLE_WARNING_SECONDS },
  'idle.afterRedeemSeconds': { default: DEFAULTS.idle.afterRedeemSeconds },
  'idle.proofSeconds': { default: DEFAULTS.idle.proofSeconds },
};

/** `console.field.<key>.help`: a line under a setting's label (`console.field.<key>`), where one helps. */
export function fieldHelp(key: string): string | null {
  const id = `console.field.${key}.help`;
  // Built from a setting's key, so not typed by its arguments: HELP_VALUES holds them.
  const helpText = i18n.t as (id: string, values?: Record<string, number>) => string;
  return i18n.has(id) ? helpText(id, HELP_VALUES[key]) : null;
}

/** What became of an export; null when the manager cancelled the save. */
export function exportedText(file: ExportedFile): string | null {
  if (file.delivery === 'download') return i18n.t('console.export.downloaded', { file: file.fileName });
  if (file.delivery === 'usb') return i18n.t('console.export.usb', { path: file.savedTo ?? file.fileName });
  return file.delivery === 'saved' ? i18n.t('console.export.saved', { path: file.savedTo ?? file.fileName }) : null;
}
