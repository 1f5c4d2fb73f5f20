import { afterAll } from 'vitest';

/**
 * The renderer's test files share one DOM (`isolate: false`): a file that leaves elements in the
 * body hands them to the next, whose `querySelector('input')` may then find another file's field.
 * Each file must leave the body as it found it.
 */
afterAll(() => {
  const left = document.body.innerHTML;
  document.body.replaceChildren();
  if (left) throw new Error(`this test file left elements in the document body (unmount or remove them): ${left.slice(0, 200)}`);
});
