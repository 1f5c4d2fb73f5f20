import { builtinModules } from 'node:module';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

/*
 * Layering (README "Who owns what"): which code may import what, by folder (= process) and by file
 * suffix (= where the code runs). Checked with `no-restricted-imports` patterns on the import
 * specifier as written; relative imports carry their extension, so suffixes are visible.
 *
 * Flat config REPLACES a rule's options when a later block matches the same file, it never merges
 * them. A file has both a folder and a suffix (renderer/visit/email.std.ts), so the two dimensions
 * use two rule slots that never overwrite each other:
 *   folder / process rules  -> `no-restricted-imports`
 *   suffix / runtime rules  -> `@typescript-eslint/no-restricted-imports` (the same rule, extended)
 */

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `node:anything` and every bare built-in name (`fs`, `fs/promises`, `child_process`, ...). */
const NODE_BUILTIN = `^(?:node:.*|${builtinModules.map(escape).join('|')})$`;
/** Packages that need Node or Electron's main process (native addons, the file system, sockets). */
const NODE_ONLY_PACKAGES = '^(?:electron|keytar|serialport|@serialport/[^/]+|ws)(?:/.*)?$';
/** A relative import that climbs out of the current top-level folder into `folder/`. */
const into = (folder) => `^(?:\\.\\./)+${folder}/`;
/** Relative imports by suffix; `.svelte` also covers `.svelte.ts` modules (imported as `x.svelte`). */
const SUFFIX = {
  node: '\\.node(?:\\.ts)?$',
  main: '\\.main(?:\\.ts)?$',
  dom: '\\.dom(?:\\.ts)?$',
  preload: '\\.preload(?:\\.ts)?$',
  worker: '\\.worker(?:\\.ts)?$',
  svelte: '\\.svelte(?:\\.[jt]s)?$',
};

/** Options for either rule slot: a list of [regex, message] pairs (regexes are case-sensitive). */
const restrict = (...rules) => [
  'error',
  { patterns: rules.map(([regex, message]) => ({ regex, message, caseSensitive: true })) },
];

/** renderer/: the page. It reaches everything else through window.kiosk. */
const RENDERER_RULES = [
  [into('main'), 'The renderer must not import main/ (another process): ask for it through window.kiosk (common/contract.std.ts).'],
  [into('sandbox'), 'The renderer must not import sandbox/ (the platform stand-in, Node only): data reaches the renderer through window.kiosk.'],
  [into('preload'), 'The renderer must not import preload/: the preload scripts build window.kiosk and run before the page; the contract and schemas are in common/.'],
  [`${into('common')}(?![^/]+\\.std\\.ts$)`, 'The renderer may import from common/ only the shared *.std.ts contract and schemas.'],
  [`${into('api')}(?![^/]+\\.std\\.ts$)`, 'The renderer may import from api/ only the *.std.ts wire schemas.'],
  [NODE_BUILTIN, 'The renderer has no Node (context isolation, no nodeIntegration): Node built-ins belong in main/; ask through window.kiosk.'],
  [NODE_ONLY_PACKAGES, 'electron, keytar, serialport and ws are main-process packages (native or Node only): the renderer reaches them only through window.kiosk.'],
];

/** sandbox/: the remote platform's stand-in. It shares only api/ with the kiosk. */
const SANDBOX_NO_MAIN_MESSAGE = 'sandbox/ stands in for the remote loyalty platform: it must not import the kiosk (main/); share wire schemas through api/.';
const SANDBOX_NO_MAIN = [into('main'), SANDBOX_NO_MAIN_MESSAGE];
const SANDBOX_RULES = [
  [into('renderer'), 'sandbox/ stands in for the remote loyalty platform: it must not import the kiosk (renderer/).'],
  [into('preload'), 'sandbox/ stands in for the remote loyalty platform: it must not import the kiosk (preload/); share wire schemas through api/.'],
];

const TESTS = ['**/*.test.ts', '**/*.test-support.ts', 'test/**'];

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
    files: ['main/**', 'sandbox/**', 'api/**', 'test/**', '*.config.*', '**/*.test.ts', '**/*.test-support.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['renderer/**', 'preload/*.preload.ts', '**/*.dom.ts', '**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['**/*.worker.ts'], languageOptions: { globals: globals.worker } },

  // ---- Layering by folder (process): `no-restricted-imports` ----
  { files: ['renderer/**'], rules: { 'no-restricted-imports': restrict(...RENDERER_RULES) } },
  {
    files: ['preload/**'],
    rules: {
      'no-restricted-imports': restrict(
        [into('main'), 'preload/ must not import main/: it only carries the contract (contract.std.ts) across the bridge.'],
        [into('renderer'), 'preload/ must not import renderer/: the renderer depends on the preload contract, not the other way round.'],
        [into('sandbox'), 'preload/ must not import sandbox/: the sandbox is a platform stand-in reached by main over HTTP.'],
      ),
    },
  },
  {
    files: ['main/**'],
    rules: {
      'no-restricted-imports': restrict(
        [into('renderer'), 'main/ must not import renderer/ (another process): share types and schemas through common/*.std.ts.'],
        [
          `${into('sandbox')}(?!sandbox\\.node\\.ts$)`,
          'main/ may reach the sandbox only through its in-process entry sandbox/sandbox.node.ts (startSandbox, the embedded demo seam); share wire types through api/, not sandbox internals.',
        ],
      ),
    },
  },
  { files: ['sandbox/**'], rules: { 'no-restricted-imports': restrict(SANDBOX_NO_MAIN, ...SANDBOX_RULES) } },
  {
    files: ['api/**'],
    rules: {
      'no-restricted-imports': restrict([
        '^(?!zod(?:/.*)?$|\\./)',
        'api/ holds the platform wire schemas that main/ and sandbox/ both derive from: it may import only zod and other api/ files.',
      ]),
    },
  },
  {
    // The OpenAPI generator (npm run openapi) is a Node script: it may also write files.
    files: ['api/**/*.node.ts'],
    rules: {
      'no-restricted-imports': restrict([
        '^(?!zod(?:/.*)?$|\\./|node:)',
        'api/ holds the platform wire schemas that main/ and sandbox/ both derive from: it may import only zod, other api/ files and (in *.node.ts scripts) node: built-ins.',
      ]),
    },
  },

  // ---- Layering by suffix (where the code runs): `@typescript-eslint/no-restricted-imports` ----
  {
    files: ['**/*.std.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        [NODE_BUILTIN, '*.std.ts runs anywhere (renderer, worker, preload, Node): no Node built-ins. Move this code to a *.node.ts file or pass the capability in.'],
        [NODE_ONLY_PACKAGES, '*.std.ts runs anywhere: no electron, native modules (keytar, serialport) or Node-only packages (ws).'],
        [SUFFIX.node, '*.std.ts runs anywhere: it must not import *.node.ts (Node only).'],
        [SUFFIX.main, '*.std.ts runs anywhere: it must not import *.main.ts (Electron main only).'],
        [SUFFIX.dom, '*.std.ts runs anywhere: it must not import *.dom.ts (renderer DOM only).'],
        [SUFFIX.preload, '*.std.ts runs anywhere: it must not import *.preload.ts (preload scripts are entry points).'],
        [SUFFIX.worker, '*.std.ts runs anywhere: it must not import *.worker.ts (a Web Worker entry).'],
        [SUFFIX.svelte, '*.std.ts runs anywhere: it must not import Svelte components or *.svelte.ts runes modules (renderer only).'],
      ),
    },
  },
  {
    files: ['**/*.node.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        ['^electron(?:/.*)?$', '*.node.ts is Node code that never imports Electron (it also runs under tsx and in the browser host): put Electron code in a *.main.ts file.'],
        [SUFFIX.main, '*.node.ts must not import *.main.ts (Electron main only); *.main.ts may import *.node.ts, not the reverse.'],
        [SUFFIX.dom, '*.node.ts must not import *.dom.ts (renderer DOM only).'],
        [SUFFIX.svelte, '*.node.ts must not import Svelte components or *.svelte.ts modules (renderer only).'],
        [SUFFIX.preload, '*.node.ts must not import *.preload.ts (preload scripts are entry points).'],
      ),
    },
  },
  {
    files: ['preload/*.preload.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowImportNames: ['contextBridge', 'ipcRenderer', 'IpcRendererEvent'],
              message: 'A preload script takes only contextBridge and ipcRenderer from electron: it exposes the contract-built window.kiosk and nothing else.',
            },
          ],
          patterns: [
            {
              regex: '^(?!electron$|\\.\\./common/[^/]+\\.std\\.ts$|\\./[^/]+\\.std\\.ts$)',
              caseSensitive: true,
              message: 'A preload script may import only electron (contextBridge, ipcRenderer) and the *.std.ts contract (common/) and bridge builder (preload/); everything else stays behind the bridge.',
            },
          ],
        },
      ],
    },
  },

  // ---- Tests drive the real parts across layers ----
  {
    files: TESTS,
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': 'off',
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
