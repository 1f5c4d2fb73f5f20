import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { defineConfig, type UserConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/**
 * One Vite config, one build per process (`vite build --mode <target>`):
 *  renderer         the Svelte UI, served by app:// (Electron) or the browser host
 *  electron-main    Electron's main process (ESM; runtime dependencies stay in node_modules)
 *  electron-preload the sandboxed preload (CommonJS, one file: sandboxed preloads cannot import)
 *  browser-preload  the browser host's bridge script (one classic script, runs before the app)
 *  node-cli         the Node programs (browser host, kioskctl, sandbox) as they ship, for the tests
 *                   to start: half the CPU of tsx compiling the sources at every start
 */
const runtimeDependencies = Object.keys(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);
const nodeExternals = [
  'electron',
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...runtimeDependencies,
  ...runtimeDependencies.map((name) => new RegExp(`^${name}/`)),
];

const targets: Record<string, UserConfig> = {
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [svelte()],
    worker: { format: 'es' },
    build: { outDir: '../dist/renderer', emptyOutDir: true, target: 'chrome120' },
  },
  'electron-main': {
    build: {
      outDir: 'dist/main',
      emptyOutDir: true,
      ssr: true,
      target: 'node20',
      rollupOptions: {
        input: { 'electron.main': 'main/electron/app.main.ts' },
        external: nodeExternals,
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  'node-cli': {
    build: {
      outDir: 'dist/node',
      emptyOutDir: true,
      ssr: true,
      target: 'node20',
      rollupOptions: {
        input: { 'browser-host': 'main/browser-host/cli.node.ts', kioskctl: 'main/kioskctl/kioskctl.node.ts', sandbox: 'sandbox/cli.node.ts' },
        external: nodeExternals,
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  'electron-preload': {
    build: {
      outDir: 'dist/preload',
      emptyOutDir: false,
      target: 'chrome120',
      lib: { entry: 'preload/electron.preload.ts', formats: ['cjs'], fileName: () => 'electron.preload.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  },
  'browser-preload': {
    build: {
      outDir: 'dist/preload',
      emptyOutDir: false,
      target: 'chrome120',
      lib: { entry: 'preload/browser.preload.ts', formats: ['iife'], name: 'kioskBridge', fileName: () => 'browser.preload.js' },
    },
  },
};

export default defineConfig(({ mode }) => targets[mode] ?? targets.renderer!);
