import type { Logger } from '../logging/logger.std.ts';

/** Typed listeners; one that throws is logged and cannot break the emitter or the others. */
export class ListenerSet<T> {
  readonly #listeners = new Set<(event: T) => void>();

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  /** Returns the unsubscribe function. */
  add(listener: (event: T) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: T) {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`${this.name} listener failed`, { error });
      }
    }
  }
}
