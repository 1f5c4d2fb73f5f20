import type { BridgeError } from '../../common/contract.std.ts';
import type { ExportedFile } from './download.dom.ts';
import { i18n } from '../i18n/i18n.svelte';

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

/** `console.field.<key>.help`: a line under a setting's label (`console.field.<key>`), where one helps. */
export function fieldHelp(key: string): string | null {
  const id = `console.field.${key}.help`;
  return i18n.has(id) ? i18n.t(id) : null;
}

/** What became of an export; null when the manager cancelled the save. */
export function exportedText(file: ExportedFile): string | null {
  if (file.delivery === 'download') return i18n.t('console.export.downloaded', { file: file.fileName });
  return file.delivery === 'saved' ? i18n.t('console.export.saved', { path: file.savedTo ?? file.fileName }) : null;
}
