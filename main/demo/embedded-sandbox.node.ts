import { SandboxStateError, startSandbox } from '../../sandbox/sandbox.node.ts';
import { StartupError } from '../process/startup-error.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { DemoSamples } from '../../common/shopper-views.std.ts';
import { demoSamples } from './demo-samples.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';

export interface EmbeddedSandbox {
  baseUrl: string;
  /** Where its hosted session pages are served: an origin of their own. */
  portalOrigin: string;
  manifestPath: string;
  credentials: { api_key: string; access_token: string; personal_access_token: string };
  /** The demo shops; a demo kiosk stands in the first one unless `api.shopUuid` says otherwise. */
  shops: Array<{ uuid: string; name: string }>;
  /** Its demo cards and voucher codes, for "Try a sample card". */
  samples: DemoSamples;
  close(): Promise<void>;
}

/**
 * Demo mode: the loyalty sandbox runs inside this process on a free loopback port, with its data
 * in the kiosk's data folder, so a fresh install works with no credentials at all.
 */
export async function startEmbeddedSandbox(options: { dataDir: string; logger: Logger }): Promise<EmbeddedSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    // Hosted pages on an origin of their own, as on the platform: demo mode frames across origins too.
    portalPort: 0,
    dataDir: dataFiles(options.dataDir).sandbox,
    logger: options.logger.child({ part: 'sandbox' }),
  }).catch((error: unknown) => {
    // A damaged demo state is the admin's to fix: one line at start-up, not a crash.
    throw error instanceof SandboxStateError ? new StartupError(error.message) : error;
  });
  return {
    baseUrl: sandbox.baseUrl,
    portalOrigin: sandbox.portalOrigin,
    manifestPath: sandbox.manifestPath,
    credentials: sandbox.manifest.credentials,
    shops: sandbox.manifest.shops,
    samples: demoSamples(sandbox.manifest),
    close: () => sandbox.close(),
  };
}
