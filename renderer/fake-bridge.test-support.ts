import {
  BridgeError,
  calls,
  events,
  type BridgeErrorCode,
  type BridgeResult,
  type CallInput,
  type CallName,
  type CallOutput,
  type EventName,
  type EventPayload,
  type KioskApi,
} from '../common/contract.std.ts';

type Answer<N extends CallName> = BridgeResult<CallOutput<N>>;

/** An answer the real bridge could give: checked against the contract, so a fake cannot drift from it. */
export function ok<N extends CallName>(name: N, value: CallOutput<N>): Answer<N> {
  return { ok: true, value: calls[name].output.parse(value) as CallOutput<N> };
}

export function refused(code: BridgeErrorCode, message = 'refused'): BridgeResult<never> {
  return { ok: false, error: BridgeError.parse({ code, message }) };
}

/**
 * The bridge as a manager or the visit sees it: only the calls given answers exist; every call is recorded
 * with its input checked against the contract, and answered from its queue (the last answer repeats);
 * `hold` keeps the next answer back until the test lets it go; `emit` sends main's events to whoever listens.
 */
export class FakeBridge<N extends CallName> {
  readonly calls: { name: N; input: unknown }[] = [];
  readonly #queued = new Map<N, Promise<Answer<N>>[]>();
  readonly #last = new Map<N, Answer<N>>();
  readonly #listeners = new Set<{ event: EventName; listener: (payload: never) => void }>();
  readonly api: Pick<KioskApi, N | 'on'>;

  constructor(usual: { [K in N]: Answer<K> }) {
    for (const name of Object.keys(usual) as N[]) this.#last.set(name, usual[name]);
    const answering = Object.fromEntries([...this.#last.keys()].map((name) => [name, (input?: unknown) => this.#answer(name, input)]));
    this.api = { ...answering, on: this.#on } as unknown as Pick<KioskApi, N | 'on'>;
  }

  /** An event as main sends it, checked against the contract. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload) as never;
    for (const entry of [...this.#listeners]) if (entry.event === event) entry.listener(checked);
  }

  get listening(): number {
    return this.#listeners.size;
  }

  answer<K extends N>(name: K, ...answers: Answer<K>[]): void {
    this.#queue(name).push(...answers.map((answer) => Promise.resolve(answer)));
  }

  hold<K extends N>(name: K): { release: (answer: Answer<K>) => void } {
    let release!: (answer: Answer<K>) => void;
    this.#queue(name).push(new Promise<Answer<K>>((resolve) => (release = resolve)));
    return { release };
  }

  inputsOf<K extends N>(name: K): CallInput<K>[] {
    return this.calls.filter((call) => call.name === name).map((call) => call.input as CallInput<K>);
  }

  names(): N[] {
    return this.calls.map((call) => call.name);
  }

  readonly #on: KioskApi['on'] = (event, listener) => {
    const entry = { event, listener: listener as (payload: never) => void };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  };

  #queue(name: N): Promise<Answer<N>>[] {
    if (!this.#queued.has(name)) this.#queued.set(name, []);
    return this.#queued.get(name)!;
  }

  #answer(name: N, input: unknown): Promise<Answer<N>> {
    this.calls.push({ name, input: calls[name].input.parse(input ?? {}) });
    return this.#queue(name).shift() ?? Promise.resolve(this.#last.get(name)!);
  }
}
