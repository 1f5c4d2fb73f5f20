import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Component } from 'svelte';

/*
 * Test support only. Vitest resolves 'svelte' with Node's conditions, which pick the server build
 * whose `mount` throws; components themselves compile for the client. Loading the client entry by
 * file keeps one runtime (the same files the compiled components import). Obsolete once the unit
 * project resolves with the 'browser' condition for jsdom tests.
 */
const svelteRoot = dirname(createRequire(import.meta.url).resolve('svelte/package.json'));
const svelte = (await import(pathToFileURL(join(svelteRoot, 'src/index-client.js')).href)) as typeof import('svelte');

export const { flushSync } = svelte;

/** jsdom has no ResizeObserver, which `bind:offsetHeight` needs; sizes are read once on mount. */
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** Mounts `component` into a fresh element in <body>; the returned function removes both. */
export function mountInBody<Props extends Record<string, unknown>>(component: Component<Props>, props: Props): () => void {
  const host = document.body.appendChild(document.createElement('div'));
  const instance = svelte.mount(component, { target: host, props });
  svelte.flushSync();
  return () => {
    void svelte.unmount(instance);
    host.remove();
  };
}
