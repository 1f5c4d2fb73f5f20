import { i18n } from '../../i18n/i18n.svelte';
import type { BridgeResult } from '../../../common/contract.std.ts';
import { managerConsole } from '../../app-state.svelte';
import { describeFailure, type Checked, type Problem } from './problems.std.ts';

/**
 * An admin view's calls to the platform: whether one is under way (its buttons wait), and what went
 * wrong with the last one, refused by the check before sending or by the platform after.
 */
export class AdminRequest {
  busy = $state(false);
  problem = $state<Problem | null>(null);
  /** The messages for one field, keyed as the platform names it (`code`, `options.0.label`). */
  readonly problemsOf = (field: string): readonly string[] => this.problem?.fields[field] ?? [];
  readonly #fieldOfCode: Record<number, string>;
  readonly #sendsOnce: boolean;

  /**
   * `fieldOfCode`: refusals the platform gives without a field, placed under the field they are
   * about (see describeFailure). `sendsOnce`: a create form's; it stays busy after it succeeded, as
   * the form is on its way out and must not send the same thing twice.
   */
  constructor({ fieldOfCode = {}, sendsOnce = false }: { fieldOfCode?: Record<number, string>; sendsOnce?: boolean } = {}) {
    this.#fieldOfCode = fieldOfCode;
    this.#sendsOnce = sendsOnce;
  }

  /** What the manager typed, sent only once it passed its check; a failed check is the problem. */
  async submit<Input, Output>(checked: Checked<Input>, send: (input: Input) => Promise<BridgeResult<Output>>, onDone: (output: Output) => void) {
    if (!checked.ok) {
      this.problem = checked.problem;
      return;
    }
    await this.send(() => send(checked.value), onDone);
  }

  /** One call, through the console (a lapsed unlock brings the PIN pad back); `onDone` takes the answer, a refusal becomes the problem. */
  async send<Output>(call: () => Promise<BridgeResult<Output>>, onDone: (output: Output) => void) {
    this.busy = true;
    this.problem = null;
    const result = await managerConsole.call(call);
    this.busy = result.ok && this.#sendsOnce;
    if (result.ok) onDone(result.value);
    else this.problem = describeFailure(result.error, i18n.t, this.#fieldOfCode);
  }
}
