/**
 * "One at a time": tasks run in the order they were queued, each once every task before it has
 * settled. One task's rejection goes to its own caller only, never to the tasks after it.
 */
export interface SerialQueue {
  /** Runs `task` after every task queued before it; resolves or rejects as `task` does. */
  run<T>(task: () => T | PromiseLike<T>): Promise<T>;
  /** Settles (never rejects) once every task queued so far has settled. */
  idle(): Promise<void>;
}

export function serialQueue(): SerialQueue {
  let tail: Promise<void> = Promise.resolve();
  return {
    run<T>(task: () => T | PromiseLike<T>): Promise<T> {
      const result = tail.then(task);
      tail = result.then(settled, settled);
      return result;
    },
    idle: () => tail,
  };
}

/** A serial queue per key: tasks of one key run one at a time, different keys side by side. */
export interface KeyedQueue<K> {
  run<T>(key: K, task: () => T | PromiseLike<T>): Promise<T>;
  /** Keys with a task queued or running: a key whose tasks have all settled is forgotten. */
  readonly size: number;
}

export function keyedQueue<K>(): KeyedQueue<K> {
  const tails = new Map<K, Promise<void>>();
  return {
    run<T>(key: K, task: () => T | PromiseLike<T>): Promise<T> {
      const result = (tails.get(key) ?? Promise.resolve()).then(task);
      const tail = result.then(settled, settled);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}

function settled(): void {}
