import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startKioskServices } from '../../main/kiosk-services.node.ts';
import { startHeartbeatWatchdog } from '../../main/supervision/heartbeat-watchdog.node.ts';

/**
 * A process with a heartbeat watchdog of `timeoutMs`, started by itself (`watchdog`), by the
 * kiosk services (`services`), or by services whose start then failed (`failed-start`: a damaged
 * demo state), that after `runMs` blocks its event loop until it is killed (`block`), blocks it
 * for three timeouts and ends (`block-briefly`), or simply has nothing left to do (`healthy`): it
 * must then end by itself, the watchdog keeping nothing alive.
 */
const [who, how, timeoutMs, runMs] = process.argv.slice(2);
const heartbeatTimeoutMs = Number(timeoutMs);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-watchdog-'));
const startServices = () => startKioskServices({ dataDir, version: 'test', keychainService: `loyalty-kiosk-test-watchdog-${process.pid}`, heartbeatTimeoutMs });
if (who === 'services') {
  await startServices();
} else if (who === 'failed-start') {
  fs.mkdirSync(path.join(dataDir, 'sandbox'));
  fs.writeFileSync(path.join(dataDir, 'sandbox', 'state.json'), '{"version":1,');
  await startServices().then(
    () => process.exit(2),
    () => undefined,
  );
} else {
  startHeartbeatWatchdog({ timeoutMs: heartbeatTimeoutMs });
}
process.stdout.write('watching\n');
setTimeout(() => {
  if (how === 'healthy') return;
  process.stdout.write('blocking\n');
  const until = how === 'block' ? Infinity : Date.now() + 3 * heartbeatTimeoutMs;
  while (Date.now() < until) Math.random();
}, Number(runMs));
