import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** `npm run lint` itself: the project's eslint.config.js on code that is not on disk. */
const eslint = new ESLint({ cwd: process.cwd() });

/** `rule: message` for every problem ESLint finds in `code` as if it were at `filePath`. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('eslint.config.js holds the layering', () => {
  it('lets each layer import what its row allows', async () => {
    expect(await problems('common/keys.std.ts', "import { ApiError } from '../api/errors.std.ts';\nexport const e = ApiError;\n")).toEqual([]);
    expect(await problems('main/electron/x.main.ts', "import { app } from 'electron';\nimport { s } from '../kiosk-services.node.ts';\nexport const x = [app, s];\n")).toEqual([]);
    expect(await problems('test/support/x.node.ts', "import { app } from '../../main/electron/app.main.ts';\nexport const x = app;\n")).toEqual([]);
  });

  it('refuses an import outside the row, with what is allowed and why', async () => {
    const found = await problems('renderer/visit/x.std.ts', "import { s } from '../../main/kiosk-services.node.ts';\nexport const x = s;\n");
    expect(found).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: renderer\/ may not import main\/kiosk-services\.node\.ts: it may import renderer\/\*\*, common\/\*\.std\.ts, api\/\*\.std\.ts\. The renderer is the page/),
      expect.stringMatching(/^layers\/file-suffix: Importing '\.\.\/\.\.\/main\/kiosk-services\.node\.ts' needs Node, but \*\.std\.ts runs anywhere/),
    ]);
  });

  it('keeps the hosts and the sandbox internals out of main/, and main/ out of the sandbox', async () => {
    expect(await problems('main/shopper/x.node.ts', "import { h } from '../browser-host/browser-host.node.ts';\nexport const x = h;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/ features may not import main\/browser-host\/browser-host\.node\.ts/),
    ]);
    expect(await problems('main/demo/x.std.ts', "import { routes } from '../../sandbox/routes.std.ts';\nexport const x = routes;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/ features may not import sandbox\/routes\.std\.ts/),
    ]);
    expect(await problems('main/electron/x.node.ts', "import { b } from '../browser-host/browser-host.node.ts';\nexport const x = b;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/electron\/ \(the Electron host\) may not import main\/browser-host\/browser-host\.node\.ts/),
    ]);
    expect(await problems('sandbox/x.std.ts', "import { keys } from '../main/config/config-keys.std.ts';\nexport const x = keys;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: sandbox\/ may not import main\/config\/config-keys\.std\.ts/),
    ]);
  });

  it('gives main/ three floors: surfaces over features over the platform', async () => {
    // A surface (a bridge handler) calls a feature and the platform.
    expect(await problems('main/handlers/x-handlers.node.ts', "import { d } from '../diagnostics/doctor.node.ts';\nimport { c } from '../config/config-store.node.ts';\nexport const x = [d, c];\n")).toEqual([]);
    // The composition root wires the surfaces.
    expect(await problems('main/kiosk-x.node.ts', "import { f } from './fleet-commands/fleet-commands.node.ts';\nexport const x = f;\n")).toEqual([]);
    // A feature never imports a surface: a handler, a fleet command, kioskctl or the composition root.
    for (const surface of ['../handlers/console-handlers.node.ts', '../fleet-commands/fleet-commands.node.ts', '../kioskctl/commands.node.ts', '../kiosk-services.node.ts']) {
      expect(await problems('main/fleet/x.node.ts', `import { s } from '${surface}';\nexport const x = s;\n`)).toEqual([
        expect.stringMatching(/^layers\/allowed-imports: main\/ features may not import main\/(handlers|fleet-commands|kioskctl|kiosk-services)/),
      ]);
    }
    // The platform imports only the platform.
    expect(await problems('main/loyalty/x.node.ts', "import { d } from '../demo/embedded-sandbox.node.ts';\nexport const x = d;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/ platform may not import main\/demo\/embedded-sandbox\.node\.ts/),
    ]);
    expect(await problems('main/config/x.node.ts', "import { h } from '../handlers/settings-handlers.node.ts';\nexport const x = h;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/ platform may not import main\/handlers\/settings-handlers\.node\.ts/),
    ]);
    // kioskctl is a surface too: no other surface imports it, and it imports none.
    expect(await problems('main/handlers/x-handlers.node.ts', "import { k } from '../kioskctl/commands.node.ts';\nexport const x = k;\n")).toEqual([
      expect.stringMatching(/^layers\/allowed-imports: main\/handlers\/, main\/fleet-commands\/, main\/control\/ \(surfaces: bridge handlers, fleet commands, kioskctl's socket\) may not import main\/kioskctl\/commands\.node\.ts/),
    ]);
  });

  it('reports a file that no layer covers, and a source file without a suffix', async () => {
    expect(await problems('tools/x.std.ts', 'export const x = 1;\n')).toEqual([
      'layers/allowed-imports: No layer covers tools/x.std.ts: add it to the layer table in eslint.config.js (which layer is it, and what may it import?).',
    ]);
    expect(await problems('main/new-folder/x.std.ts', 'export const x = 1;\n')).toEqual([
      'layers/allowed-imports: No layer covers main/new-folder/x.std.ts: add it to the layer table in eslint.config.js (which layer is it, and what may it import?).',
    ]);
    expect(await problems('main/x.ts', "import fs from 'node:fs';\nexport const x = fs;\n")).toEqual([
      expect.stringMatching(/^layers\/file-suffix: x\.ts has no suffix .*: name it x\.node\.ts\.$/),
    ]);
  });

  it('keeps a preload script to contextBridge and ipcRenderer', async () => {
    const found = await problems('preload/x.preload.ts', "import { contextBridge, shell } from 'electron';\ncontextBridge.exposeInMainWorld('s', shell);\n");
    expect(found).toEqual([expect.stringMatching(/^layers\/file-suffix: Importing 'electron' needs Electron's main process, but \*\.preload\.ts is a preload script/)]);
  });
});
