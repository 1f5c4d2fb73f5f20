import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build, preview, type InlineConfig } from 'vite';
import { contentSecurityPolicy } from '../../main/security/content-security-policy.std.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), 'harness');

export interface HarnessServer {
  /** Origin with a trailing slash, on 127.0.0.1. */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the harness pages with Vite as the renderer is built (vite.config.ts, mode renderer), so
 * the worker and the .wasm are bundled the real way, and serves them on loopback under the app's
 * own Content-Security-Policy, so WASM compilation and the worker are proven allowed by it.
 */
export async function serveCameraHarness(): Promise<HarnessServer> {
  const outDir = await mkdtemp(join(tmpdir(), 'camera-harness-'));
  const config: InlineConfig = {
    root,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [svelte({ configFile: false })],
    worker: { format: 'es' },
    build: {
      target: 'chrome120',
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: { index: join(root, 'index.html'), bench: join(root, 'bench.html') } },
    },
    preview: { host: '127.0.0.1', port: 0, headers: { 'Content-Security-Policy': contentSecurityPolicy(null) } },
  };
  await build(config);
  const server = await preview(config);
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the harness preview server has no local URL');
  return {
    url,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
