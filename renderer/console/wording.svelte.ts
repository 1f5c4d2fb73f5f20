import type { BridgeError } from '../../preload/contract.std.ts';
import type { ExportedFile } from './download.dom.ts';
import { i18n } from '../i18n/i18n.svelte';
import { messageKey } from './console-text.std.ts';

/** A failed console call in plain words; the keychain and the platform have their own sentence. */
export function failureText(error: BridgeError): string {
  if (error.code === 'unavailable') return i18n.t('console.problem.unavailable', { message: error.message });
  if (['network', 'timeout', 'server', 'maintenance'].includes(error.code)) return i18n.t('console.problem.connection');
  return i18n.t('console.problem.failed', { message: error.message });
}

/** The message `id` (built from a name main sends, such as a scanner state), else `fallback`. */
export function named(id: string, fallback: string): string {
  const key = messageKey(id);
  return key ? i18n.t(key) : fallback;
}

/** What became of an export; null when the manager cancelled the save. */
export function exportedText(file: ExportedFile): string | null {
  if (file.delivery === 'download') return i18n.t('console.export.downloaded', { file: file.fileName });
  return file.delivery === 'saved' ? i18n.t('console.export.saved', { path: file.savedTo ?? file.fileName }) : null;
}
