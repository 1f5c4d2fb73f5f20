import type { BrowserWindowConstructorOptions, WebContents } from 'electron';
import type { Logger } from '../logging/logger.std.ts';
import { isAppUrl } from '../security/app-origin.std.ts';
import { isKioskEscapeShortcut } from '../security/escape-shortcuts.std.ts';

export interface KioskWindowSettings {
  preload: string;
  /** `npm run dev`: a normal window with devtools; never on a shop floor. */
  dev: boolean;
}

/** Electron's security checklist, as window options. */
export function kioskWindowOptions({ preload, dev }: KioskWindowSettings): BrowserWindowConstructorOptions {
  return {
    kiosk: !dev,
    fullscreen: !dev,
    autoHideMenuBar: true,
    // Shown at once, black: with the page's boot cover it hides the desktop from the first frame.
    show: true,
    backgroundColor: '#000000',
    width: 1080,
    height: 1920,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: dev,
      safeDialogs: true,
    },
  };
}

/**
 * Guards every web contents the app creates: no navigation away from the app, no new windows,
 * no <webview>, no escape shortcuts outside development, and a crashed or hung renderer is
 * reloaded (the log says why) so the kiosk heals itself.
 */
export function hardenWebContents(contents: WebContents, { dev, logger }: { dev: boolean; logger: Logger }) {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      logger.warn('navigation blocked', { event: 'navigation.blocked', url: safeOrigin(url) });
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    logger.warn('new window blocked', { url: safeOrigin(url) });
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  if (!dev) {
    contents.on('before-input-event', (event, input) => {
      if (isKioskEscapeShortcut(input)) event.preventDefault();
    });
    contents.on('devtools-opened', () => contents.closeDevTools());
  }
  contents.on('render-process-gone', (_event, details) => {
    logger.error('renderer gone; reloading', { event: 'renderer.gone', reason: details.reason, exitCode: details.exitCode });
    if (details.reason !== 'clean-exit') contents.reload();
  });
  contents.on('unresponsive', () => {
    logger.error('renderer unresponsive; reloading', { event: 'renderer.unresponsive' });
    contents.forcefullyCrashRenderer();
    contents.reload();
  });
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'unparseable';
  }
}
