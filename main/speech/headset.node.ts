import { execFile } from 'node:child_process';
import { headphonesInUse } from './headset.std.ts';

/** pactl answers at once or not at all: a stuck sound server must not hold speech up. */
const PACTL_TIMEOUT_MS = 1_000;

function pactl(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // Killed outright at the timeout: a pactl that ignores SIGTERM would outlive it, one more with every question.
    execFile(command, args, { timeout: PACTL_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

/**
 * Whether the OS reports a headset plugged in and in use (EN 301 549 5.1.3.9: private listening),
 * asked of `pactl` from PATH; no sound server, no pactl or no answer is a speaker.
 */
export async function headsetPluggedIn(command = 'pactl'): Promise<boolean> {
  // Both asked at once, and both waited for: no pactl outlives the answer.
  const [sinks, defaultSink] = await Promise.allSettled([pactl(command, ['--format=json', 'list', 'sinks']), pactl(command, ['get-default-sink'])]);
  if (sinks.status === 'rejected' || defaultSink.status === 'rejected') return false;
  return headphonesInUse(sinks.value, defaultSink.value.trim());
}
