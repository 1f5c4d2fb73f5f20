import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { FakeBridge, ok } from '../fake-bridge.test-support.ts';
import PortPicker from './PortPicker.svelte';
import { ScannerConsole } from './scanner.svelte.ts';
import { SettingsForm } from './settings-form.svelte';

await i18n.loadCatalogue('console');

// The bridge as main answers it: one USB scanner and one built-in port.
const PORTS = [
  { path: '/dev/ttyACM0', manufacturer: 'Datalogic', vendorId: '05f9', productId: '4204', serialNumber: 'D-77' },
  { path: '/dev/ttyS0' },
];
const bridge = new FakeBridge({
  listSerialPorts: ok('listSerialPorts', PORTS),
  getScannerStatus: ok('getScannerStatus', { connection: 'serial', state: 'connected', path: '/dev/ttyS0' }),
});

let component: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (component) unmount(component);
  document.body.innerHTML = '';
});

async function picker(usb: unknown = null) {
  const config = KioskConfig.omit({ manager: true }).parse({ scanner: { connection: 'serial', serial: { path: '/dev/ttyS0', usb } } });
  // Only edited here: the form never loads or saves, so it needs none of the bridge's settings calls.
  const form = new SettingsForm({ bridge: bridge.api as never, call: (run) => run() }, ['scanner.serial.path']);
  form.replace({ demo: true, config, lockedKeys: [], secrets: {} } as unknown as ConsoleSettings);
  component = mount(PortPicker, { target: document.body, props: { form, scanner: new ScannerConsole({ bridge: bridge.api }) } });
  await vi.waitFor(() => expect(document.querySelectorAll('input[type="radio"]')).toHaveLength(2));
  const radio = (path: string) => [...document.querySelectorAll('label')].find((label) => label.textContent?.includes(path))!.querySelector('input')!;
  return { form, radio };
}

describe('PortPicker', () => {
  it('saves a listed USB port with its identity, so main finds it again at another path', async () => {
    const { form, radio } = await picker();
    radio('/dev/ttyACM0').click();
    flushSync();
    expect(form.changes).toEqual({
      'scanner.serial.path': '/dev/ttyACM0',
      'scanner.serial.usb': { vendorId: '05f9', productId: '4204', serialNumber: 'D-77' },
    });
  });

  it('drops a saved identity for a port that has none, or a path typed in', async () => {
    const { form, radio } = await picker({ vendorId: '05f9', productId: '4204', serialNumber: null });
    radio('/dev/ttyACM0').click();
    radio('/dev/ttyS0').click();
    flushSync();
    expect(form.changes).toEqual({ 'scanner.serial.usb': null });

    const typed = document.querySelector<HTMLInputElement>('input:not([type="radio"])')!;
    typed.value = '/dev/serial/by-id/scanner';
    typed.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(form.changes).toEqual({ 'scanner.serial.path': '/dev/serial/by-id/scanner', 'scanner.serial.usb': null });
  });
});
