import { events, type EventName, type EventPayload } from '../../common/contract.std.ts';

type HostListener = (event: EventName, payload: unknown) => void;

/** Main → renderer events, checked against the contract before any host carries them. */
export class EventBus {
  #listeners = new Set<HostListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>) {
    const checked = events[event].parse(payload);
    for (const listener of this.#listeners) listener(event, checked);
  }

  /** A host subscribes once per connected renderer. */
  subscribe(listener: HostListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
