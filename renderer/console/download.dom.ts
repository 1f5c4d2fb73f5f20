import type { CallOutput } from '../../common/contract.std.ts';

export type ExportedFile = CallOutput<'exportSettings'>;

/**
 * Hands an export to the manager. Electron has saved it already (where the manager chose); the
 * browser host leaves it to the page, which offers it as a download.
 */
export function handOver(file: ExportedFile): void {
  if (file.delivery !== 'download') return;
  const url = URL.createObjectURL(new Blob([file.content], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: file.fileName });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
