/**
 * layers/allowed-imports: an allow-list of imports per layer, as VS Code's `code-import-patterns`.
 * The table (rule options, kept in eslint.config.js) says for each layer which repository paths
 * and which packages its files may import; the first layer whose `files` match a file is its
 * layer, and a file that no layer covers is itself an error, so a new folder cannot slip past.
 */
import { anyGlob, globToRegExp } from './glob.js';
import { importVisitor, isNodeBuiltin, isRelative, packageName, repoPath, resolveRelative } from './imports.js';

/** In `packages`: every Node built-in (`node:fs`, `fs`, ...). */
export const NODE_BUILTINS = 'node:*';
/** In `packages`: any package at all (tests and tooling). */
export const ANY_PACKAGE = '*';

/**
 * @typedef {object} Layer
 * @property {string} name how messages call the layer (`renderer/`)
 * @property {string[]} files globs of the files in the layer
 * @property {string[]} imports globs of repository paths it may import; `!glob` takes paths back
 *   out (the last glob that matches decides, as in .gitignore)
 * @property {string[]} packages package names it may import (a name covers its subpaths), or
 *   NODE_BUILTINS, or ANY_PACKAGE
 * @property {string} why the reason, said in every message about the layer
 */

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only what its row of the layer table allows' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                files: { type: 'array', items: { type: 'string' } },
                imports: { type: 'array', items: { type: 'string' } },
                packages: { type: 'array', items: { type: 'string' } },
                why: { type: 'string' },
              },
              required: ['name', 'files', 'imports', 'packages', 'why'],
              additionalProperties: false,
            },
          },
        },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      noLayer: 'No layer covers {{file}}: add it to the layer table in eslint.config.js (which layer is it, and what may it import?).',
      path: '{{layer}} may not import {{target}}: it may import {{allowed}}. {{why}}',
      outside: '{{layer}} may not import {{target}}, outside the repository. {{why}}',
      package: '{{layer}} may not import the package `{{name}}`: it may use {{allowed}}. {{why}}',
    },
  },
  create(context) {
    const { root = context.cwd, layers } = context.options[0];
    const file = repoPath(root, context.filename);
    const layer = layers.find((candidate) => anyGlob(candidate.files)(file));
    if (!layer) {
      return { Program: (node) => context.report({ node, messageId: 'noLayer', data: { file } }) };
    }
    const mayImportPath = pathAllowList(layer.imports);
    const mayImportPackage = packageAllowList(layer.packages);
    return importVisitor((source) => {
      const specifier = source.value;
      const data = { layer: layer.name, why: layer.why };
      if (isRelative(specifier)) {
        const target = resolveRelative(file, specifier);
        if (target.startsWith('../')) context.report({ node: source, messageId: 'outside', data: { ...data, target } });
        else if (!mayImportPath(target)) {
          context.report({ node: source, messageId: 'path', data: { ...data, target, allowed: describePaths(layer.imports) } });
        }
      } else if (!mayImportPackage(specifier)) {
        const name = isNodeBuiltin(specifier) ? specifier : packageName(specifier);
        context.report({ node: source, messageId: 'package', data: { ...data, name, allowed: describePackages(layer.packages) } });
      }
    });
  },
};

/** `main/**, common/*.std.ts, but not main/electron/**` */
function describePaths(globs) {
  const allowed = globs.filter((glob) => !glob.startsWith('!'));
  const excluded = globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  return `${allowed.join(', ') || 'nothing'}${excluded.length ? `, but not ${excluded.join(', ')}` : ''}`;
}

/** `svelte, zod` or `Node built-ins, zod` */
function describePackages(packages) {
  return packages.map((name) => (name === NODE_BUILTINS ? 'Node built-ins' : name)).join(', ') || 'no package';
}

/** @param {string[]} globs @returns {(path: string) => boolean} the last matching glob decides */
function pathAllowList(globs) {
  const rules = globs.map((glob) => ({ allow: !glob.startsWith('!'), regex: globToRegExp(glob.replace(/^!/, '')) }));
  return (path) => rules.reduce((allowed, rule) => (rule.regex.test(path) ? rule.allow : allowed), false);
}

/** @param {string[]} packages @returns {(specifier: string) => boolean} */
function packageAllowList(packages) {
  const names = new Set(packages);
  return (specifier) =>
    names.has(ANY_PACKAGE) || (isNodeBuiltin(specifier) ? names.has(NODE_BUILTINS) : names.has(packageName(specifier)));
}
