import allowedImports, { ANY_PACKAGE, NODE_BUILTINS } from '../../eslint-rules/allowed-imports.js';
import { inRepo, REPO, ruleTester } from './rule-tester.test-support.ts';

/** A small table in the shape of eslint.config.js's, first match wins. */
const layers = [
  { name: 'A test', files: ['**/*.test.ts', 'test/**'], imports: ['**'], packages: [ANY_PACKAGE], why: 'Tests cross layers.' },
  {
    name: 'main/electron/',
    files: ['main/electron/**'],
    imports: ['main/**', '!main/browser-host/**', 'common/*.std.ts'],
    packages: [NODE_BUILTINS, 'electron'],
    why: 'A host carries the contract.',
  },
  {
    name: 'main/',
    files: ['main/**'],
    imports: ['main/**', '!main/electron/**', '!main/browser-host/**', 'common/*.std.ts', 'sandbox/sandbox.node.ts'],
    packages: [NODE_BUILTINS, 'zod'],
    why: 'Nothing imports a host.',
  },
  {
    name: 'renderer/',
    files: ['renderer/**'],
    imports: ['renderer/**', 'common/*.std.ts', 'api/*.std.ts'],
    packages: ['svelte', 'zod', 'zxing-wasm', '@scope/ui'],
    why: 'The renderer talks through window.kiosk.',
  },
];
const options = [{ root: REPO, layers }];
const renderer = inRepo('renderer/visit/visit.dom.ts');
const service = inRepo('main/handlers/shopper-handlers.node.ts');

ruleTester.run('layers/allowed-imports', allowedImports, {
  valid: [
    { filename: renderer, options, code: "import { calls } from '../../common/contract.std.ts';" },
    { filename: renderer, options, code: "import { field } from './field.std.ts'; import App from '../App.svelte';" },
    { filename: renderer, options, code: "import { mount } from 'svelte'; import type { HTMLAttributes } from 'svelte/elements';" },
    { filename: renderer, options, code: "import wasm from 'zxing-wasm/reader/zxing_reader.wasm?url'; import { Button } from '@scope/ui/button';" },
    { filename: renderer, options, code: "const Console = () => import('../console/ManagerConsole.svelte');" },
    { filename: service, options, code: "import fs from 'node:fs'; import { readFile } from 'fs/promises'; import { z } from 'zod';" },
    { filename: service, options, code: "import { startSandbox } from '../../sandbox/sandbox.node.ts';" },
    { filename: inRepo('main/electron/app.main.ts'), options, code: "import { win } from './kiosk-window.main.ts'; import { app } from 'electron';" },
    { filename: inRepo('main/kiosk.test.ts'), options, code: "import { host } from './electron/app.main.ts'; import fc from 'fast-check';" },
    { filename: inRepo('test/support/x.node.ts'), options, code: "import { state } from '../../sandbox/state.std.ts';" },
    // A name that is not an import is not checked.
    { filename: renderer, options, code: "const where = '../../main/secret.node.ts';" },
  ],
  invalid: [
    {
      filename: renderer,
      options,
      code: "import { services } from '../../main/kiosk-services.node.ts';",
      errors: [
        {
          message:
            'renderer/ may not import main/kiosk-services.node.ts: it may import renderer/**, common/*.std.ts, api/*.std.ts. The renderer talks through window.kiosk.',
        },
      ],
    },
    {
      filename: renderer,
      options,
      code: "import fs from 'node:fs';\nimport { readFile } from 'fs';\nimport keytar from 'keytar';",
      errors: [
        { line: 1, message: 'renderer/ may not import the package `node:fs`: it may use svelte, zod, zxing-wasm, @scope/ui. The renderer talks through window.kiosk.' },
        { line: 2, message: /the package `fs`/ },
        { line: 3, message: /the package `keytar`/ },
      ],
    },
    {
      // Only common/'s *.std.ts files, and every form of import is checked.
      filename: renderer,
      options,
      code: "export * from '../../common/contract.node.ts';\nexport { x } from '../../sandbox/state.std.ts';\nconst m = import('../../preload/bridge.std.ts');",
      errors: [
        { line: 1, message: /may not import common\/contract\.node\.ts/ },
        { line: 2, message: /may not import sandbox\/state\.std\.ts/ },
        { line: 3, message: /may not import preload\/bridge\.std\.ts/ },
      ],
    },
    {
      // A `!` glob takes the hosts back out of main/**.
      filename: service,
      options,
      code: "import { host } from '../browser-host/browser-host.node.ts';\nimport { app } from '../electron/app.main.ts';",
      errors: [
        {
          line: 1,
          message:
            'main/ may not import main/browser-host/browser-host.node.ts: it may import main/**, common/*.std.ts, sandbox/sandbox.node.ts, but not main/electron/**, main/browser-host/**. Nothing imports a host.',
        },
        { line: 2, message: /may not import main\/electron\/app\.main\.ts/ },
      ],
    },
    {
      filename: service,
      options,
      code: "import { routes } from '../../sandbox/routes.std.ts';\nimport { Server } from 'ws';",
      errors: [{ message: /may not import sandbox\/routes\.std\.ts/ }, { message: 'main/ may not import the package `ws`: it may use Node built-ins, zod. Nothing imports a host.' }],
    },
    {
      filename: service,
      options,
      code: "import x from '../../../elsewhere/x.ts';",
      errors: [{ message: 'main/ may not import ../elsewhere/x.ts, outside the repository. Nothing imports a host.' }],
    },
    {
      filename: inRepo('tools/new-folder/script.node.ts'),
      options,
      code: 'export const nothing = 0;',
      errors: [{ message: 'No layer covers tools/new-folder/script.node.ts: add it to the layer table in eslint.config.js (which layer is it, and what may it import?).' }],
    },
  ],
});
