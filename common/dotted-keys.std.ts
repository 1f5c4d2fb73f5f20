/**
 * Settings are named by dotted keys (`session.facing_mode`) in kioskctl, the provisioning file and
 * the console: reading, listing and replacing them in a plain settings tree, the same in every process.
 */
type Tree = Record<string, unknown>;

const isBranch = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every leaf of a settings tree as a dotted key; lists are leaves (`locale.enabled`). */
export function leafKeys(tree: unknown, prefix = ''): string[] {
  if (!isBranch(tree)) return [];
  return Object.entries(tree).flatMap(([name, value]) => (isBranch(value) ? leafKeys(value, `${prefix}${name}.`) : [`${prefix}${name}`]));
}

/** The value at `key`; undefined where the tree has none. */
export function readDotted(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, name) => (isBranch(node) ? node[name] : undefined), tree);
}

/** A copy of `tree` with the dotted keys in `values` replaced (missing branches made); the caller validates the result. */
export function withDotted(tree: unknown, values: Record<string, unknown>): unknown {
  const copy = structuredClone(tree) as Tree;
  for (const [key, value] of Object.entries(values)) {
    const names = key.split('.');
    const last = names.pop() as string;
    let node = copy;
    for (const name of names) node = (node[name] ??= {}) as Tree;
    node[last] = value;
  }
  return copy;
}
