import { startHeartbeatWatchdog } from '../../main/supervision/heartbeat-watchdog.node.ts';

/**
 * A process with a heartbeat watchdog of `timeoutMs` that, after `runMs`, either blocks its event
 * loop until it is killed (`block`) or simply has nothing left to do (`healthy`): it must then
 * end by itself, the watchdog keeping nothing alive.
 */
const [how, timeoutMs, runMs] = process.argv.slice(2);
startHeartbeatWatchdog({ timeoutMs: Number(timeoutMs) });
process.stdout.write('watching\n');
setTimeout(() => {
  if (how !== 'block') return;
  process.stdout.write('blocking\n');
  for (;;) Math.random();
}, Number(runMs));
