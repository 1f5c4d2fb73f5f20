import { kiosk } from './kiosk.dom.ts';

/** A renderer failure goes to the kiosk's log (main redacts it); the shopper never sees it. */
export function reportError(error: unknown, where: string) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  void kiosk.reportRendererError({ message: message.slice(0, 2000), where });
}
