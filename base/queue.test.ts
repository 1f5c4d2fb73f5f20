import { describe, expect, it } from 'vitest';
import { keyedQueue, serialQueue } from './queue.std.ts';

/** A task that runs until its test lets it end. */
function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('serialQueue', () => {
  it('runs each task once the one before has settled, in the order they were queued', async () => {
    const queue = serialQueue();
    const seen: string[] = [];
    const first = gate<string>();
    const a = queue.run(async () => {
      seen.push('a starts');
      const value = await first.promise;
      seen.push('a ends');
      return value;
    });
    const b = queue.run(() => {
      seen.push('b runs');
      return 'b';
    });
    await Promise.resolve();
    expect(seen).toEqual(['a starts']);
    first.open('a');
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(seen).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('gives a rejection to its own caller only: the next task still runs', async () => {
    const queue = serialQueue();
    const failing = queue.run(() => Promise.reject(new Error('broken')));
    const throwing = queue.run(() => {
      throw new Error('thrown');
    });
    const next = queue.run(() => 'ran');
    await expect(failing).rejects.toThrow('broken');
    await expect(throwing).rejects.toThrow('thrown');
    expect(await next).toBe('ran');
    await expect(queue.idle()).resolves.toBeUndefined();
  });

  it('is idle only once every task queued so far has settled', async () => {
    const queue = serialQueue();
    const slow = gate<void>();
    let done = false;
    void queue.run(() => slow.promise.then(() => (done = true)));
    const idle = queue.idle().then(() => done);
    slow.open();
    expect(await idle).toBe(true);
  });
});

describe('keyedQueue', () => {
  it('runs tasks of one key one at a time and tasks of other keys beside them', async () => {
    const queue = keyedQueue<string>();
    const seen: string[] = [];
    const held = gate<void>();
    const a1 = queue.run('a', async () => {
      seen.push('a1 starts');
      await held.promise;
      seen.push('a1 ends');
    });
    const a2 = queue.run('a', () => seen.push('a2 runs'));
    const b1 = queue.run('b', () => seen.push('b1 runs'));
    await b1;
    expect(seen).toEqual(['a1 starts', 'b1 runs']);
    held.open();
    await Promise.all([a1, a2]);
    expect(seen).toEqual(['a1 starts', 'b1 runs', 'a1 ends', 'a2 runs']);
  });

  it('gives a rejection to its own caller only: the key\'s next task still runs', async () => {
    const queue = keyedQueue<string>();
    const failing = queue.run('a', () => Promise.reject(new Error('broken')));
    const next = queue.run('a', () => 'ran');
    await expect(failing).rejects.toThrow('broken');
    expect(await next).toBe('ran');
  });

  it('forgets a key once its tasks have settled, also after a rejection', async () => {
    const queue = keyedQueue<string>();
    const held = gate<void>();
    const a = queue.run('a', () => held.promise);
    const b = queue.run('b', () => Promise.reject(new Error('broken')));
    await expect(b).rejects.toThrow('broken');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(1);
    held.open();
    await a;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});
