import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startKioskServices } from '../../main/kiosk-services.node.ts';
import { startHeartbeatWatchdog } from '../../main/supervision/heartbeat-watchdog.node.ts';

/**
 * A process with a heartbeat watchdog of `timeoutMs`, started by itself (`watchdog`) or by the
 * kiosk services (`services`), that after `runMs` either blocks its event loop until it is killed
 * (`block`) or simply has nothing left to do (`healthy`): it must then end by itself, the
 * watchdog keeping nothing alive.
 */
const [who, how, timeoutMs, runMs] = process.argv.slice(2);
const heartbeatTimeoutMs = Number(timeoutMs);
if (who === 'services') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-watchdog-'));
  await startKioskServices({ dataDir, version: 'test', keychainService: `loyalty-kiosk-test-watchdog-${process.pid}`, heartbeatTimeoutMs });
} else {
  startHeartbeatWatchdog({ timeoutMs: heartbeatTimeoutMs });
}
process.stdout.write('watching\n');
setTimeout(() => {
  if (how !== 'block') return;
  process.stdout.write('blocking\n');
  for (;;) Math.random();
}, Number(runMs));
