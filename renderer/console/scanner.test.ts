import { describe, expect, it } from 'vitest';
import type { ScannerStatus } from '../../common/contract.std.ts';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';
import { ScannerConsole } from './scanner.svelte.ts';

const CONNECTING: ScannerStatus = { connection: 'serial', state: 'connecting', path: '/dev/ttyACM0' };

function scannerWith() {
  const bridge = new FakeBridge({
    getScannerStatus: ok('getScannerStatus', CONNECTING),
    listSerialPorts: ok('listSerialPorts', [{ path: '/dev/ttyACM0' }]),
  });
  return { bridge, scanner: new ScannerConsole({ bridge: bridge.api }) };
}

describe('the console scanner', () => {
  it('shows main status and follows it until told to stop', async () => {
    const { bridge, scanner } = scannerWith();
    const stop = scanner.watchStatus();
    await expect.poll(() => scanner.status).toEqual(CONNECTING);
    bridge.emit('scannerStatus', { ...CONNECTING, state: 'connected' });
    expect(scanner.status?.state).toBe('connected');

    stop();
    expect(bridge.listening).toBe(0);
    bridge.emit('scannerStatus', { ...CONNECTING, state: 'error', lastError: 'unplugged' });
    expect(scanner.status?.state).toBe('connected');
  });

  it('lists the ports, and none (said as failed) when main cannot', async () => {
    const { bridge, scanner } = scannerWith();
    await scanner.refreshPorts();
    expect(scanner).toMatchObject({ ports: [{ path: '/dev/ttyACM0' }], portsFailed: false });
    bridge.answer('listSerialPorts', refused('internal'));
    await scanner.refreshPorts();
    expect(scanner).toMatchObject({ ports: [], portsFailed: true });
  });

  it('passes on the scans main read, until told to stop', () => {
    const { bridge, scanner } = scannerWith();
    const seen: string[] = [];
    const stop = scanner.onScan((scan) => seen.push(scan.value));
    bridge.emit('scan', { value: '4006381333931', source: 'serial', at: 1 });
    stop();
    bridge.emit('scan', { value: '4006381333948', source: 'serial', at: 2 });
    expect(seen).toEqual(['4006381333931']);
  });
});
