import { flushSync, mount, unmount, type Component } from 'svelte';

export { flushSync };

/** jsdom has no ResizeObserver, which `bind:offsetHeight` needs; sizes are read once on mount. */
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** Mounts `component` into a fresh element in <body>; the returned function removes both. */
export function mountInBody<Props extends Record<string, unknown>>(component: Component<Props>, props: Props): () => void {
  const host = document.body.appendChild(document.createElement('div'));
  const instance = mount(component, { target: host, props });
  flushSync();
  return () => {
    void unmount(instance);
    host.remove();
  };
}
