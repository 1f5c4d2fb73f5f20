import type { BridgeError } from '../../common/contract.std.ts';
import type { ExportedFile } from './download.dom.ts';
import { fill } from '../i18n/fill.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { consoleTemplate, messageKey, type ConsoleText } from './console-text.std.ts';

/** A console text in the language the kiosk shows now; read in markup, it follows a switch. */
export const t = (key: ConsoleText, params: Record<string, string | number> = {}): string => fill(consoleTemplate(i18n.locale, key), params);

/** A failed console call in plain words; the keychain and the platform have their own sentence. */
export function failureText(error: BridgeError): string {
  if (error.code === 'unavailable') return t('console.problem.unavailable', { message: error.message });
  if (['network', 'timeout', 'server', 'maintenance'].includes(error.code)) return t('console.problem.connection');
  return t('console.problem.failed', { message: error.message });
}

/** The message `id` (built from a name main sends, such as a scanner state), else `fallback`. */
export function named(id: string, fallback: string): string {
  const key = messageKey(id);
  return key ? t(key) : fallback;
}

/** What became of an export; null when the manager cancelled the save. */
export function exportedText(file: ExportedFile): string | null {
  if (file.delivery === 'download') return t('console.export.downloaded', { file: file.fileName });
  return file.delivery === 'saved' ? t('console.export.saved', { path: file.savedTo ?? file.fileName }) : null;
}
