/**
 * layers/file-suffix: a file's suffix says where it runs (README "Who owns what"), so the rule
 * infers that from what the file uses, as Signal Desktop's `file-suffix` rule does, and reports a
 * suffix that is wrong or missing:
 *   Node built-ins, Node-only packages, Node globals, *.node.ts  -> .node.ts (or .main.ts)
 *   electron (anything but contextBridge/ipcRenderer), *.main.ts -> .main.ts
 *   electron's contextBridge/ipcRenderer, *.preload.ts           -> .preload.ts
 *   window, document and other page-only globals, Svelte files   -> .dom.ts / .svelte / .svelte.ts
 *   browser globals a worker has too (OffscreenCanvas, ...), *.dom.ts -> .dom.ts or .worker.ts
 *   self, postMessage and other worker globals, *.worker.ts       -> .worker.ts
 *   none of these                                                 -> .std.ts (runs anywhere)
 * Globals are found by scope analysis (references that resolve to the global scope), never by
 * text. Imports count with their types, as the layering always did (`import type` from electron
 * still makes a file Electron code). A global used only as a type (ImageBitmap, MediaStream) shows
 * what a file handles, which is enough to justify a suffix (NodeJS.Timeout for .node.ts), but it
 * never makes a file wrong: TypeScript's DOM and Node types are in scope everywhere and erased.
 */
import path from 'node:path';
import globals from 'globals';
import { importVisitor, isNodeBuiltin, isRelative, packageName } from './imports.js';

/** Packages that need Node (native addons, the file system, sockets); more can be passed in. */
const NODE_PACKAGES = ['keytar', 'serialport', '@serialport/*', 'ws', 'mqtt'];
/** What a preload script may take from electron (the rest is Electron's main process). */
const PRELOAD_ELECTRON = new Set(['contextBridge', 'ipcRenderer', 'IpcRendererEvent']);
const WORKER_GLOBALS = new Set(['self', 'postMessage', 'onmessage', 'importScripts', ...only(globals.worker, globals.browser)]);
const PAGE_GLOBALS = new Set(only(globals.browser, globals.worker));
const BROWSER_GLOBALS = new Set(only(globals.browser).filter((name) => name in globals.worker && !WORKER_GLOBALS.has(name)));
/** Node's globals, and the `NodeJS` namespace of its types (NodeJS.Timeout, NodeJS.ErrnoException). */
const NODE_GLOBALS = new Set([...only(globals.node, globals.browser, globals.worker), 'NodeJS']);

/**
 * Global names in `set` that none of `others` has, leaving out what every runtime of the kiosk
 * has (JavaScript's built-ins, and what Node shares with browsers: fetch, URL, setTimeout, ...).
 */
function only(set, ...others) {
  const everywhere = (name) => name in globals.builtin || (set !== globals.node && name in globals.node);
  return Object.keys(set).filter((name) => !others.some((other) => name in other) && !everywhere(name));
}

/** What a use needs, in the words of the messages. */
const NEEDS = {
  node: 'needs Node',
  electron: "needs Electron's main process",
  preload: 'belongs to a preload script (contextBridge, ipcRenderer)',
  page: 'needs the page (renderer DOM)',
  browser: 'needs a browser (page or Web Worker)',
  worker: 'needs a Web Worker',
};

/** Per suffix: what it means, which needs it may have, and the needs of which it must show one (if any). */
const SUFFIXES = {
  std: { meaning: '*.std.ts runs anywhere (renderer, worker, preload, Node)', may: [] },
  node: {
    meaning: '*.node.ts is Node code that never imports Electron (it also runs under tsx and in the browser host)',
    may: ['node'],
    must: ['node'],
  },
  main: { meaning: "*.main.ts is Electron's main process", may: ['node', 'electron'], must: ['electron'] },
  preload: { meaning: '*.preload.ts is a preload script', may: ['preload', 'page', 'browser'] },
  dom: { meaning: '*.dom.ts is renderer code', may: ['page', 'browser'], must: ['page', 'browser'] },
  svelte: { meaning: 'Svelte files are renderer code', may: ['page', 'browser'] },
  worker: { meaning: '*.worker.ts is a Web Worker', may: ['browser', 'worker'] },
};

/** The suffix a file with these needs should have, strongest need first. */
function suggestedSuffix(needs) {
  if (needs.has('node') && ['page', 'browser', 'worker', 'preload'].some((need) => needs.has(need))) return null;
  if (needs.has('electron')) return 'main';
  if (needs.has('preload')) return 'preload';
  if (needs.has('worker')) return 'worker';
  if (needs.has('page') || needs.has('browser')) return 'dom';
  if (needs.has('node')) return 'node';
  return 'std';
}

/** `x.std.ts` -> 'std', `X.svelte`/`x.svelte.ts` -> 'svelte', `x.ts` -> null (no suffix). */
function suffixOf(filename) {
  if (/\.svelte(?:\.ts)?$/.test(filename)) return 'svelte';
  return /\.(std|node|main|preload|dom|worker)\.ts$/.exec(filename)?.[1] ?? null;
}

/** What importing `specifier` needs at run time, or null when it runs anywhere. */
function needOfImport(specifier, declaration, nodePackages) {
  if (isRelative(specifier)) {
    const suffix = suffixOf(specifier.replace(/\?.*$/, '')) ?? suffixOf(`${specifier}.ts`);
    return { node: 'node', main: 'electron', preload: 'preload', dom: 'browser', svelte: 'page', worker: 'worker' }[suffix] ?? null;
  }
  if (isNodeBuiltin(specifier)) return 'node';
  const name = packageName(specifier);
  if (nodePackages.some((pattern) => pattern === name || (pattern.endsWith('/*') && name.startsWith(pattern.slice(0, -1))))) {
    return 'node';
  }
  if (name === 'electron') return takesOnlyPreloadApis(declaration) ? 'preload' : 'electron';
  return null;
}

/** `import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'` and nothing more. */
function takesOnlyPreloadApis(declaration) {
  if (declaration.type !== 'ImportDeclaration' || declaration.specifiers.length === 0) return false;
  return declaration.specifiers.every(
    (specifier) =>
      specifier.type === 'ImportSpecifier' &&
      PRELOAD_ELECTRON.has(specifier.imported.name ?? specifier.imported.value),
  );
}

/** What a global name needs, or null for names every runtime has. */
function needOfGlobal(name) {
  if (NODE_GLOBALS.has(name)) return 'node';
  if (WORKER_GLOBALS.has(name)) return 'worker';
  if (PAGE_GLOBALS.has(name)) return 'page';
  if (BROWSER_GLOBALS.has(name)) return 'browser';
  return null;
}

/** References (values and types) in the file to names that no declaration of the file binds. */
function globalReferences(globalScope) {
  const references = [...globalScope.through];
  for (const variable of globalScope.variables) {
    if (variable.defs.length === 0) references.push(...variable.references);
  }
  return references;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "A file's suffix matches where what it uses can run" },
    schema: [
      {
        type: 'object',
        properties: { nodePackages: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      wrongUse: '{{what}} {{needs}}, but {{meaning}}: {{advice}}',
      needless: 'Nothing in {{file}} {{needs}} ({{meaning}}): name it {{suggestion}}.',
      missing: '{{file}} has no suffix saying where it runs (.std.ts, .node.ts, .main.ts, .preload.ts, .dom.ts, .worker.ts): name it {{suggestion}}.',
      mixed: '{{file}} mixes Node with browser code: split it into a *.node.ts and a *.dom.ts/*.std.ts file.',
    },
  },
  create(context) {
    const nodePackages = context.options[0]?.nodePackages ?? NODE_PACKAGES;
    const file = path.basename(context.filename);
    const suffix = suffixOf(file);
    if (file.endsWith('.d.ts') || (!suffix && !file.endsWith('.ts'))) return {};
    /** @type {{ node: import('estree').Node, what: string, need: string, typeOnly?: boolean }[]} */
    const uses = [];

    return {
      ...importVisitor((source, declaration) => {
        const need = needOfImport(source.value, declaration, nodePackages);
        if (need) uses.push({ node: source, what: `Importing '${source.value}'`, need });
      }),
      'Program:exit'(program) {
        for (const reference of globalReferences(context.sourceCode.getScope(program))) {
          const need = needOfGlobal(reference.identifier.name);
          const typeOnly = reference.isValueReference === false;
          if (need) uses.push({ node: reference.identifier, what: `\`${reference.identifier.name}\``, need, typeOnly });
        }
        reportSuffix(context, program, file, suffix, uses);
      },
    };
  },
};

function reportSuffix(context, program, file, suffix, uses) {
  const runningUses = uses.filter((use) => !use.typeOnly);
  const runs = suggestedSuffix(new Set(runningUses.map((use) => use.need)));
  if (runs === null) return context.report({ node: program, messageId: 'mixed', data: { file } });
  const needs = new Set(uses.map((use) => use.need));
  const suggestion = renamed(file, runs === 'std' ? (suggestedSuffix(needs) ?? runs) : runs);
  if (!suffix) return context.report({ node: program, messageId: 'missing', data: { file, suggestion } });

  const { meaning, may, must } = SUFFIXES[suffix];
  const advice = `name the file ${suggestion}, or move this code to such a file or pass the capability in.`;
  const wrongUses = runningUses.filter((use) => !may.includes(use.need));
  for (const use of wrongUses) {
    context.report({ node: use.node, messageId: 'wrongUse', data: { what: use.what, needs: NEEDS[use.need], meaning, advice } });
  }
  if (wrongUses.length === 0 && must && !must.some((need) => needs.has(need))) {
    // The last of `must` is the broadest need (a browser, for the page or a worker).
    context.report({ node: program, messageId: 'needless', data: { file, needs: NEEDS[must.at(-1)], meaning, suggestion } });
  }
}

/** `email.std.ts` + 'node' -> `email.node.ts`; `email.ts` + 'std' -> `email.std.ts`. */
function renamed(file, suffix) {
  const stem = file.replace(/\.(?:std|node|main|preload|dom|worker)\.ts$|\.svelte\.ts$|\.ts$/, '');
  return `${stem}.${suffix}.ts`;
}
