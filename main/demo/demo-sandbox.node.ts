import type { Logger } from '../logging/logger.std.ts';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embedded-sandbox.node.ts';

/**
 * The demo sandbox of a running kiosk: started when demo mode needs it (at start, or once a kiosk
 * is sent back to demo), at most once at a time, and a start that failed may be tried again.
 */
export interface DemoSandbox {
  /** Present once started. */
  current(): EmbeddedSandbox | null;
  start(): Promise<EmbeddedSandbox>;
  /** Closes the sandbox, once a start under way has finished. */
  close(): Promise<void>;
}

export function createDemoSandbox(options: {
  dataDir: string;
  logger: Logger;
  /** Each of its credentials, for the log redactor. */
  onSecret: (value: string) => void;
}): DemoSandbox {
  let sandbox: EmbeddedSandbox | null = null;
  let starting: Promise<EmbeddedSandbox> | undefined;
  return {
    current: () => sandbox,
    start: () =>
      (starting ??= startEmbeddedSandbox({ dataDir: options.dataDir, logger: options.logger }).then(
        (started) => {
          for (const secret of Object.values(started.credentials)) options.onSecret(secret);
          return (sandbox = started);
        },
        (error: unknown) => {
          starting = undefined;
          throw error;
        },
      )),
    close: async () => {
      await starting?.then((started) => started.close(), () => undefined);
    },
  };
}
