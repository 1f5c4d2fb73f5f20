import type { ChildProcess } from 'node:child_process';

/** How long a stopped speech program has to end on SIGTERM before it is killed. */
export const STOP_GRACE_MS = 500;
/** Speech programs alive at once, at most: the one speaking and those still ending. */
export const MAX_SPEECH_PROCESSES = 3;

/**
 * The speech programs (espeak-ng) still alive. A stopped one gets SIGTERM, then SIGKILL after a
 * grace, so one that ignores SIGTERM ends all the same. A new one waits for room: at the cap the
 * oldest is killed outright and its exit waited for, so key presses never pile programs up.
 */
export class SpeechProcesses {
  /** Each live program and its exit, oldest first. */
  readonly #alive = new Map<ChildProcess, Promise<void>>();

  constructor(private readonly graceMs = STOP_GRACE_MS) {}

  /** Settles once a new program may start. */
  async room(): Promise<void> {
    while (this.#alive.size >= MAX_SPEECH_PROCESSES) {
      const [oldest, exited] = this.#alive.entries().next().value!;
      oldest.kill('SIGKILL');
      await exited;
    }
  }

  /** Counts `child` as alive until it exits; one that never started (no pid: its `error` says why) is not. */
  track(child: ChildProcess): void {
    if (child.pid === undefined) return;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        this.#alive.delete(child);
        resolve();
      }),
    );
    this.#alive.set(child, exited);
  }

  /** Asks `child` to end now, and ends it after the grace if it has not. */
  stop(child: ChildProcess): void {
    child.kill('SIGTERM');
    const exited = this.#alive.get(child);
    if (!exited) return;
    const escalation = setTimeout(() => child.kill('SIGKILL'), this.graceMs);
    void exited.then(() => clearTimeout(escalation));
  }
}
