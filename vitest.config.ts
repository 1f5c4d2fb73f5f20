import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Unit and integration tests sit next to the code (*.test.ts); end-to-end tests drive the
// real renderer in Chromium through the browser host and live in test/e2e.
//
// Three files at a time, e2e files too: much of an e2e file is waiting (on Chromium, a kiosk
// process, a timer in main), which another file's work fills. Each e2e file has its own kiosks,
// sandboxes, brokers, ports and keychain names, so files never share state. The unit and renderer
// files a worker runs share one module graph (and DOM) instead of a fresh one each (`isolate:
// false`: that cost 40% of their CPU); a renderer file must leave the DOM empty. The JSON report
// feeds the slowest-files list .ci/run prints.
/**
 * Tests that need more than Node and the code: the keychain (keytar, run under
 * test/with-keyring.sh), the built CLIs in dist/, Mosquitto, a real child process (espeak-ng, a
 * pty, a kiosk or sandbox process) or Chromium, and the long fuzz and fault runs. They make the
 * `integration` project; everything else under these folders is `unit` (`npm run test:unit`, no
 * build, no keyring). A path ending in / takes its folder. test/lint/test-tiers.test.ts checks
 * that no unit test imports what only integration may.
 */
export const INTEGRATION = [
  'main/browser-host/browser-host.test.ts',
  'main/browser-host/kiosk-browser.test.ts',
  'main/electron/app.test.ts',
  'main/electron/bridge-ipc.test.ts',
  'main/electron/renderer-gone.test.ts',
  'main/fleet/discovery-publisher.test.ts',
  'main/fleet/fleet-acl.test.ts',
  'main/fleet/fleet-client.test.ts',
  'main/fleet/fleet-close.test.ts',
  'main/fleet/mqtt-loaded-lazily.test.ts',
  'main/handlers/',
  'main/kiosk-services.',
  'main/kioskctl/',
  'main/ledger/ledger-storage.test.ts',
  'main/manager/console-gate.test.ts',
  'main/printer/escpos-printer.test.ts',
  'main/printer/slip-service.test.ts',
  'main/scanner/serial-scanner.node.test.ts',
  'main/schedule/schedule-service.test.ts',
  'main/secrets/',
  'main/speech/espeak.test.ts',
  'main/speech/speech-service.test.ts',
  'main/supervision/heartbeat-watchdog.test.ts',
  'main/update/fleet-update.test.ts',
  'main/update/kioskctl-update.test.ts',
  'sandbox/cli.test.ts',
  'sandbox/fuzz.test.ts',
  'test/faults/',
  'test/fuzz/',
  'test/support/',
];
const integrationGlobs = INTEGRATION.map((entry) => (entry.endsWith('/') ? `${entry}**/*.test.ts` : entry.endsWith('.') ? `${entry}*test.ts` : entry));

export default defineConfig({
  plugins: [svelte()],
  test: {
    maxWorkers: 3,
    isolate: false,
    // expect.poll waits for a state; its default 1 s bound is shorter than a camera failing or a
    // broker answering takes on a loaded 2-core machine (a fresh-clone run failed so).
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest-report.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{api,base,common,main,preload,sandbox,test}/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...integrationGlobs],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integrationGlobs,
          environment: 'node',
          testTimeout: 20_000,
          // Their set-ups start real parts as a test does: the shipped broker with a dozen users, each
          // added by deploy/mosquitto/fleet-user (several processes a user), then kiosks on it. On a
          // loaded 2-core runner that took over the default 10 s once (a fresh-clone run).
          hookTimeout: 60_000,
        },
      },
      {
        // Renderer code runs in a DOM and resolves packages as a browser would (Svelte's client
        // build, whose mount() works), exactly as Vite builds it.
        extends: true,
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['renderer/clean-dom.test-support.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // A fresh process per e2e file: one file's kiosks, browsers and signals never reach the next.
          isolate: true,
        },
      },
    ],
  },
});
