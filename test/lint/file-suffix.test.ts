import globals from 'globals';
import fileSuffix from '../../eslint-rules/file-suffix.js';
import { inRepo, ruleTester } from './rule-tester.test-support.ts';

const browser = { globals: globals.browser };
const node = { globals: globals.node };
const STD = '*.std.ts runs anywhere (renderer, worker, preload, Node)';
const NODE = '*.node.ts is Node code that never imports Electron (it also runs under tsx and in the browser host)';

ruleTester.run('layers/file-suffix', fileSuffix, {
  valid: [
    { filename: inRepo('renderer/visit/email.std.ts'), code: "import { z } from 'zod'; export const email = z.string();" },
    { filename: inRepo('main/config/store.node.ts'), code: "import fs from 'node:fs'; export const read = () => fs.readFileSync('x');" },
    // Node by what it imports: a *.node.ts file, or a Node-only package.
    { filename: inRepo('main/shop.node.ts'), code: "import type { Client } from './loyalty/client.node.ts'; export type C = Client;" },
    { filename: inRepo('main/scanner/ports.node.ts'), code: "import { SerialPort } from 'serialport'; export const open = () => new SerialPort({ path: '', baudRate: 9600 });" },
    // Node by its types alone (a timer handle).
    { filename: inRepo('main/health.node.ts'), code: 'export let timer: NodeJS.Timeout | undefined;' },
    { filename: inRepo('main/electron/ipc.main.ts'), code: "import type { IpcMain } from 'electron'; export const on = (ipc: IpcMain) => ipc;" },
    { filename: inRepo('main/electron/app.main.ts'), code: "import { app } from 'electron'; import fs from 'node:fs'; export const go = () => [app, fs];" },
    {
      filename: inRepo('preload/electron.preload.ts'),
      languageOptions: browser,
      code: "import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'; contextBridge.exposeInMainWorld('k', ipcRenderer); export type E = IpcRendererEvent;",
    },
    { filename: inRepo('preload/browser.preload.ts'), languageOptions: browser, code: 'export const token = location.search;' },
    { filename: inRepo('renderer/main.dom.ts'), languageOptions: browser, code: "document.title = 'kiosk';" },
    { filename: inRepo('renderer/camera/decoder-worker.dom.ts'), languageOptions: browser, code: "export const start = () => new Worker('x.js');" },
    { filename: inRepo('renderer/camera/open.dom.ts'), code: 'export type Opened = { stream: MediaStream };' },
    { filename: inRepo('renderer/mount.dom.ts'), code: "import App from './App.svelte'; export { App };" },
    { filename: inRepo('renderer/camera/decoder.worker.ts'), code: "import { decode } from './zxing.dom.ts'; self.onmessage = (m) => postMessage(decode(m));" },
    // A DOM type in a shared protocol says what it carries; the type is erased, the file still runs anywhere.
    { filename: inRepo('renderer/camera/protocol.std.ts'), code: 'export type Frame = { bitmap: ImageBitmap };' },
    // Scope analysis, not text: a local `document`, a property `window`, a string 'process'.
    {
      filename: inRepo('renderer/console/download.std.ts'),
      languageOptions: browser,
      code: "export function save(document: { title: string }, options: { window: number }) { return [document.title, options.window, 'process'] }",
    },
    { filename: inRepo('renderer/App.svelte.ts'), languageOptions: browser, code: 'export const width = () => window.innerWidth;' },
  ],
  invalid: [
    {
      filename: inRepo('renderer/visit/email.std.ts'),
      code: "import fs from 'node:fs';\nimport { readFile } from 'fs/promises';\nimport { store } from '../store.node.ts';",
      errors: [
        { line: 1, message: `Importing 'node:fs' needs Node, but ${STD}: name the file email.node.ts, or move this code to such a file or pass the capability in.` },
        { line: 2, message: /^Importing 'fs\/promises' needs Node/ },
        { line: 3, message: /^Importing '\.\.\/store\.node\.ts' needs Node/ },
      ],
    },
    {
      // Even a type from a Node-only file: the old layering rules forbade it, this one too.
      filename: inRepo('common/contract.std.ts'),
      code: "import type { Client } from '../main/client.node.ts';\nimport type { Server } from 'ws';",
      errors: [{ line: 1, message: /^Importing '\.\.\/main\/client\.node\.ts' needs Node/ }, { line: 2, message: /^Importing 'ws' needs Node/ }],
    },
    {
      filename: inRepo('main/logging/logger.std.ts'),
      languageOptions: node,
      code: 'export const level = process.env.LEVEL;\nexport const bytes = Buffer.from("x");',
      errors: [
        { line: 1, message: `\`process\` needs Node, but ${STD}: name the file logger.node.ts, or move this code to such a file or pass the capability in.` },
        { line: 2, message: /^`Buffer` needs Node/ },
      ],
    },
    {
      // Found without configured globals too (the name resolves to nothing in the file).
      filename: inRepo('renderer/scanner/wedge.std.ts'),
      code: "export const here = typeof window !== 'undefined';\nexport const focus = () => document.activeElement;",
      errors: [
        { line: 1, message: `\`window\` needs the page (renderer DOM), but ${STD}: name the file wedge.dom.ts, or move this code to such a file or pass the capability in.` },
        { line: 2, message: /^`document` needs the page/ },
      ],
    },
    {
      filename: inRepo('renderer/camera/frames.std.ts'),
      code: 'export const canvas = () => new OffscreenCanvas(1, 1);',
      errors: [{ message: /^`OffscreenCanvas` needs a browser \(page or Web Worker\), but \*\.std\.ts runs anywhere/ }],
    },
    {
      filename: inRepo('renderer/visit/visit.std.ts'),
      code: "import Home from '../screens/Home.svelte';\nimport { listen } from '../scanner/wedge.dom.ts';\nimport { decoder } from '../camera/decoder.worker.ts';",
      errors: [{ line: 1, message: /needs the page/ }, { line: 2, message: /needs a browser/ }, { line: 3, message: /needs a Web Worker/ }],
    },
    {
      filename: inRepo('main/loyalty/client.node.ts'),
      code: "import fs from 'node:fs';\nimport { app } from 'electron';\nimport { win } from '../electron/window.main.ts';",
      errors: [
        { line: 2, message: `Importing 'electron' needs Electron's main process, but ${NODE}: name the file client.main.ts, or move this code to such a file or pass the capability in.` },
        { line: 3, message: /^Importing '\.\.\/electron\/window\.main\.ts' needs Electron's main process/ },
      ],
    },
    {
      filename: inRepo('main/loyalty/health.node.ts'),
      code: "import { LoyaltyError } from './errors.std.ts';\nexport const isOutage = (e: unknown) => e instanceof LoyaltyError;",
      errors: [{ line: 1, column: 1, message: `Nothing in health.node.ts needs Node (${NODE}): name it health.std.ts.` }],
    },
    {
      filename: inRepo('main/electron/escape.main.ts'),
      code: "import fs from 'node:fs'; export const read = fs.readFileSync;",
      errors: [{ message: "Nothing in escape.main.ts needs Electron's main process (*.main.ts is Electron's main process): name it escape.node.ts." }],
    },
    {
      filename: inRepo('renderer/camera/native.dom.ts'),
      code: "import { formats } from './formats.std.ts'; export const supported = () => formats;",
      errors: [{ message: 'Nothing in native.dom.ts needs a browser (page or Web Worker) (*.dom.ts is renderer code): name it native.std.ts.' }],
    },
    {
      // A preload script takes only contextBridge and ipcRenderer from electron.
      filename: inRepo('preload/electron.preload.ts'),
      code: "import { contextBridge, shell } from 'electron'; contextBridge.exposeInMainWorld('s', shell);",
      errors: [{ message: /^Importing 'electron' needs Electron's main process, but \*\.preload\.ts is a preload script: name the file electron\.main\.ts/ }],
    },
    {
      filename: inRepo('renderer/camera/decoder.worker.ts'),
      code: 'export const title = document.title;',
      errors: [{ message: /^`document` needs the page \(renderer DOM\), but \*\.worker\.ts is a Web Worker/ }],
    },
    {
      filename: inRepo('renderer/components/Chart.svelte.ts'),
      code: "import fs from 'node:fs'; export const read = fs.readFileSync;",
      errors: [{ message: /^Importing 'node:fs' needs Node, but Svelte files are renderer code: name the file Chart\.node\.ts/ }],
    },
    {
      filename: inRepo('main/config/migrate.ts'),
      code: "import fs from 'node:fs'; export const read = fs.readFileSync;",
      errors: [{ message: 'migrate.ts has no suffix saying where it runs (.std.ts, .node.ts, .main.ts, .preload.ts, .dom.ts, .worker.ts): name it migrate.node.ts.' }],
    },
    {
      filename: inRepo('common/keys.ts'),
      code: 'export const keys = [];',
      errors: [{ message: /^keys\.ts has no suffix .*: name it keys\.std\.ts\.$/ }],
    },
    {
      filename: inRepo('renderer/scanner/serial.dom.ts'),
      code: "import { SerialPort } from 'serialport';\nexport const port = () => [new SerialPort({ path: '', baudRate: 1 }), document.body];",
      errors: [{ line: 1, column: 1, message: 'serial.dom.ts mixes Node with browser code: split it into a *.node.ts and a *.dom.ts/*.std.ts file.' }],
    },
  ],
});
