import { setInterval } from 'node:timers';
import { Worker } from 'node:worker_threads';

/** How long the main thread may go without a heartbeat before the process is ended. */
export const HEARTBEAT_TIMEOUT_MS = 30_000;

export interface HeartbeatWatchdog {
  stop(): Promise<void>;
}

/**
 * The watcher: a worker thread, so it runs on when the main thread's event loop is stuck. It
 * writes straight to fd 2 (a worker's process.stderr goes through the stuck main thread) and
 * SIGKILLs the process: a stuck event loop would never run a clean exit, and the supervisor
 * (systemd's Restart=always) starts the kiosk again, whose start settles the journal. Inline
 * CommonJS, so the bundled Electron main needs no second file to find at run time.
 */
const WATCHER = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { beats, timeoutMs, checkMs } = workerData;
let seen = Atomics.load(beats, 0);
let lastBeatAt = Date.now();
setInterval(() => {
  const now = Date.now();
  const beat = Atomics.load(beats, 0);
  if (beat !== seen) {
    seen = beat;
    lastBeatAt = now;
  } else if (now - lastBeatAt >= timeoutMs) {
    fs.writeSync(2, 'kiosk watchdog: the main thread missed its heartbeat for ' + (now - lastBeatAt) + ' ms; ending the process for the supervisor to restart\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}, checkMs);
`;

/**
 * Ends this process when its main thread stops beating for `timeoutMs` (a busy loop, a deadlocked
 * native call): the main thread bumps a shared counter, a worker watches it. Node timers, not the
 * globals: a test's fake timers must not stop the heartbeat.
 */
export function startHeartbeatWatchdog({ timeoutMs = HEARTBEAT_TIMEOUT_MS }: { timeoutMs?: number } = {}): HeartbeatWatchdog {
  const beats = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const tickMs = Math.min(1_000, Math.max(10, Math.floor(timeoutMs / 5)));
  const worker = new Worker(WATCHER, { eval: true, workerData: { beats, timeoutMs, checkMs: tickMs } });
  // Neither keeps the process alive: they watch it, they are not what it is for.
  worker.unref();
  const heartbeat = setInterval(() => Atomics.add(beats, 0, 1), tickMs);
  heartbeat.unref();
  return {
    async stop() {
      clearInterval(heartbeat);
      await worker.terminate();
    },
  };
}
