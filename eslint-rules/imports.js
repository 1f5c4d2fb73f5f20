/** What both layer rules need to know about an import: where it points and whether it runs. */
import { builtinModules } from 'node:module';
import path from 'node:path';

/** `svelte/elements` -> `svelte`, `@scope/pkg/x` -> `@scope/pkg`; a bundler query (`?url`) is dropped. */
export function packageName(specifier) {
  const [first = '', second = ''] = withoutQuery(specifier).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** `node:anything` and every bare built-in name (`fs`, `fs/promises`, `child_process`, ...). */
export function isNodeBuiltin(specifier) {
  return specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));
}

export const isRelative = (specifier) => specifier === '.' || specifier.startsWith('./') || specifier.startsWith('../');

export const withoutQuery = (specifier) => specifier.replace(/\?.*$/, '');

/** The file's path from the repository root, with `/` separators (`renderer/visit/email.std.ts`). */
export function repoPath(root, filename) {
  return path.relative(root, filename).split(path.sep).join('/');
}

/** Where a relative import from `fromRepoPath` lands, as a repository path (`../x` when it leaves). */
export function resolveRelative(fromRepoPath, specifier) {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromRepoPath), withoutQuery(specifier)));
}

/**
 * A visitor calling `visit(source, declaration)` for every import, re-export and dynamic import
 * with a literal specifier (`source` is the string Literal node).
 * @param {(source: import('estree').Literal & { value: string }, declaration: any) => void} visit
 */
export function importVisitor(visit) {
  const withSource = (node) => {
    if (node.source?.type === 'Literal' && typeof node.source.value === 'string') visit(node.source, node);
  };
  return {
    ImportDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ImportExpression: withSource,
  };
}
