import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import layers, { ANY_PACKAGE, NODE_BUILTINS } from './eslint-rules/index.js';

/*
 * Layering (README "Who owns what"), two rules of the project's own plugin (eslint-rules/):
 *  - layers/allowed-imports: the LAYERS table below is an allow-list, as VS Code's
 *    `code-import-patterns`. The first layer whose `files` match a file is its layer; its imports
 *    must match `imports` (repository paths; `!` takes a path back out, the last match decides) or
 *    `packages`. A file no layer covers is an error: a new folder needs a row.
 *  - layers/file-suffix: a file's suffix must match where what it uses can run (Node built-ins,
 *    electron, window/document, worker globals, the suffixes of what it imports), as Signal
 *    Desktop's rule of that name. Tests and config files are left out.
 */

const TESTS = ['**/*.test.ts', '**/*.test-support.ts', 'test/**'];
const TOOLING = ['*.config.{js,ts}', 'eslint-rules/**'];
/*
 * main/ has three floors (README "Who owns what"); a file's floor is its folder's:
 *  - platform: what every kiosk part stands on (files, logs, config, secrets, the platform's client,
 *    the scanner, the bridge's dispatch, the process's exit codes and host interface);
 *  - features: what the kiosk does (one folder each), built on the platform and on each other;
 *  - surfaces: where a request comes in (the console's and the screen's bridge handlers, the fleet's
 *    commands, kioskctl, the two hosts) and the composition root that wires the features to them.
 * A floor imports its own and the floors below it, never one above.
 */
const PLATFORM = ['bridge', 'config', 'logging', 'loyalty', 'paths', 'process', 'scanner', 'secrets', 'security'].map((folder) => `main/${folder}/**`);
const FEATURES = [
  'activity',
  'autostart',
  'demo',
  'diagnostics',
  'fleet',
  'ledger',
  'manager',
  'printer',
  'schedule',
  'shopper',
  'speech',
  'supervision',
  'update',
  'vouchers',
].map((folder) => `main/${folder}/**`);
/** The surfaces a host or the composition root wires: the bridge handlers, the fleet's commands, kioskctl's socket. */
const WIRED_SURFACES = ['main/handlers/**', 'main/fleet-commands/**', 'main/control/**'];
const COMPOSITION_ROOT = ['main/*.ts'];
/** What every floor of main/ may import below main/: the shared layers, and the sandbox's entry (demo mode). */
const BELOW_MAIN = ['common/*.std.ts', 'api/*.std.ts', 'base/**', 'sandbox/sandbox.node.ts'];
const MAIN_PACKAGES = [NODE_BUILTINS, 'better-sqlite3', 'receiptline', 'electron', 'electron-updater', 'js-yaml', 'keytar', 'serialport', 'ws', 'zod', 'mqtt'];
const BELOW_WHY =
  'The renderer is another process (share through common/*.std.ts); the sandbox is embedded (demo mode) only through sandbox/sandbox.node.ts (startSandbox).';
/** A row of main/: its floor's files may import `imports` and the layers below main/. */
const mainRow = (name, files, imports, why) => ({ name, files, imports: [...imports, ...BELOW_MAIN], packages: MAIN_PACKAGES, why: `${why} ${BELOW_WHY}` });

const LAYERS = [
  {
    name: 'A test file',
    files: TESTS,
    imports: ['**'],
    packages: [ANY_PACKAGE],
    why: 'Tests drive the real parts across layers.',
  },
  {
    name: 'Tooling',
    files: TOOLING,
    imports: ['eslint-rules/**'],
    packages: [ANY_PACKAGE],
    why: 'Build and lint configuration runs in Node and imports no product code.',
  },
  {
    name: 'The OpenAPI script (api/*.node.ts)',
    files: ['api/*.node.ts'],
    imports: ['api/*.std.ts'],
    packages: ['zod', NODE_BUILTINS],
    why: 'npm run openapi writes api/openapi.json from the wire schemas.',
  },
  {
    name: 'api/',
    files: ['api/**'],
    imports: ['api/*.std.ts'],
    packages: ['zod'],
    why: 'api/ holds the platform wire schemas that main/ and sandbox/ both derive from.',
  },
  {
    name: 'common/',
    files: ['common/**'],
    imports: ['common/*.std.ts', 'api/*.std.ts'],
    packages: ['zod'],
    why: 'common/ is the cross-process truth (contract, schemas) that main, preload and renderer share: it builds only on api/.',
  },
  {
    name: 'base/',
    files: ['base/**'],
    imports: ['base/**'],
    packages: [NODE_BUILTINS],
    why: 'base/ is Node plumbing with no kiosk knowledge, used by main/ and sandbox/.',
  },
  {
    name: 'preload/',
    files: ['preload/**'],
    imports: ['preload/*.std.ts', 'common/*.std.ts'],
    packages: ['electron'],
    why: 'The preload scripts build window.kiosk from the contract (common/) with the bridge builder and carry it (electron contextBridge and ipcRenderer, or a WebSocket); everything else stays behind the bridge.',
  },
  mainRow(
    'main/electron/ (the Electron host)',
    ['main/electron/**'],
    ['main/electron/**', ...COMPOSITION_ROOT, ...WIRED_SURFACES, 'main/kioskctl/kioskctl-process.node.ts', ...FEATURES, ...PLATFORM],
    'A host carries the contract to a window: it starts the composition root and may wire what it wires (and the packaged app runs kioskctl through its entry, `--kioskctl`); no other host, and nothing imports a host but its entry points and tests.',
  ),
  mainRow(
    'main/browser-host/ (the browser host)',
    ['main/browser-host/**'],
    ['main/browser-host/**', ...COMPOSITION_ROOT, ...WIRED_SURFACES, ...FEATURES, ...PLATFORM],
    'A host carries the contract to a browser tab: it starts the composition root and may wire what it wires; no other host, and nothing imports a host but its entry points and tests.',
  ),
  mainRow(
    'main/*.ts (the composition root)',
    COMPOSITION_ROOT,
    [...COMPOSITION_ROOT, ...WIRED_SURFACES, ...FEATURES, ...PLATFORM],
    'The composition root (kiosk-services.node.ts) builds the platform and the features and hands them to the handlers and the fleet commands; a host starts it.',
  ),
  mainRow(
    'main/handlers/, main/fleet-commands/, main/control/ (surfaces: bridge handlers, fleet commands, kioskctl\'s socket)',
    WIRED_SURFACES,
    [...WIRED_SURFACES, ...FEATURES, ...PLATFORM],
    'A surface turns a request (a bridge call, a fleet command, a kioskctl request) into calls on the features; it is wired by the composition root, never imported by a feature.',
  ),
  mainRow(
    'main/kioskctl/ (a surface: the admin command line)',
    ['main/kioskctl/**'],
    ['main/kioskctl/**', ...FEATURES, ...PLATFORM],
    'kioskctl is a surface: it calls the features and the platform the kiosk uses, and no feature calls it.',
  ),
  mainRow(
    'main/ features',
    FEATURES,
    [...FEATURES, ...PLATFORM],
    'A feature (one folder each) builds on other features and the platform; it never imports a surface (a handler, a fleet command, kioskctl, a host or the composition root): a surface calls it, or the composition root passes it what it needs.',
  ),
  mainRow(
    'main/ platform',
    PLATFORM,
    PLATFORM,
    'The platform is what every feature and surface stands on; it knows no feature: a feature passes it what it needs.',
  ),
  {
    name: 'sandbox/',
    files: ['sandbox/**'],
    imports: ['sandbox/**', 'api/*.std.ts', 'base/**'],
    packages: [NODE_BUILTINS, 'zod'],
    why: 'sandbox/ stands in for the remote loyalty platform: it shares wire schemas (api/) and plumbing (base/) with the kiosk, never main/, preload/ or renderer/.',
  },
  {
    name: 'renderer/',
    files: ['renderer/**'],
    imports: ['renderer/**', 'common/*.std.ts', 'api/*.std.ts'],
    packages: ['svelte', 'zod', 'intl-messageformat', 'qrcode', 'zxing-wasm'],
    why: 'The renderer is the page (context isolation, no Node): it reaches main, the platform and the hardware only through window.kiosk (common/contract.std.ts), and bundles only browser-safe packages.',
  },
];

export default defineConfig(
  globalIgnores(['dist/', 'release/', 'node_modules/', 'test-results/', 'coverage/', 'api/openapi.json']),

  // ---- Language: TypeScript everywhere, Svelte components with the TS parser inside <script> ----
  // Not type-aware on purpose: with recommendedTypeChecked + projectService a run took 27-66 s wall
  // (about 31 s CPU) on this 2-core machine, against 5-10 s without; too close to a 60 s budget.
  tseslint.configs.recommended,
  svelte.configs.recommended,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    rules: {
      // `_`-prefixed parameters and bindings are deliberately unused (signatures, destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  // ---- Globals per process ----
  {
    files: ['main/**', 'sandbox/**', 'api/**', 'base/**', 'test/**', '*.config.*', 'eslint-rules/**', '**/*.test.ts', '**/*.test-support.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['renderer/**', 'preload/*.preload.ts', '**/*.dom.ts', '**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['**/*.worker.ts'], languageOptions: { globals: globals.worker } },

  // ---- Layering: the allow-list per layer and the file suffixes ----
  {
    plugins: { layers },
    rules: { 'layers/allowed-imports': ['error', { root: import.meta.dirname, layers: LAYERS }] },
  },
  {
    files: ['**/*.ts', '**/*.svelte'],
    // Test code drives browsers from Node (Playwright's page.evaluate callbacks run in the page).
    ignores: [...TESTS, ...TOOLING],
    rules: { 'layers/file-suffix': 'error' },
  },

  // ---- Tests drive the real parts across layers (their row in LAYERS allows every import) ----
  {
    files: TESTS,
    rules: {
      // Tests read untyped JSON answers field by field; `any` there is deliberate.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  // ---- Short functions in main/ (issue #14): a function that does one job fits on a screen ----
  {
    files: ['main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
