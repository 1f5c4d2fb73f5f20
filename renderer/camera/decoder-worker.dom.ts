import type { CameraFormat } from '../../common/config-schema.std.ts';
import type { CameraService, DecoderEngine } from './camera-service.std.ts';
import type { DecoderReply, DecoderRequest } from './decoder-protocol.std.ts';

export type StartedDecoder = { ok: true; worker: Worker; engine: DecoderEngine } | { ok: false; detail: string };

/** Starts the decoder worker and waits until its decoder is loaded (or has failed to load). */
export function startDecoderWorker(service: CameraService, formats: readonly CameraFormat[]): Promise<StartedDecoder> {
  // This exact `new Worker(new URL(...))` shape is what Vite recognises and bundles.
  const worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    const fail = (detail: string) => {
      worker.terminate();
      resolve({ ok: false, detail });
    };
    const onError = (event: ErrorEvent) => fail(`decoder worker failed to start: ${event.message}`);
    worker.addEventListener('error', onError, { once: true });
    worker.addEventListener(
      'message',
      (event: MessageEvent<DecoderReply>) => {
        worker.removeEventListener('error', onError);
        const reply = event.data;
        if (reply.type === 'ready') resolve({ ok: true, worker, engine: reply.engine });
        else fail(reply.type === 'init-failed' ? reply.message : `unexpected first reply ${reply.type}`);
      },
      { once: true },
    );
    // A plain copy: the settings array may be a Svelte state proxy, which cannot be cloned.
    worker.postMessage({ type: 'init', service, formats: [...formats] } satisfies DecoderRequest);
  });
}
