import { describe, expect, it } from 'vitest';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../common/contract.std.ts';
import type { Scan } from '../../common/scan.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { forwardBridgeEvents, registerBridgeIpc } from './bridge-ipc.main.ts';
import { FakeIpcMain, FakeWebContents, fakeKioskServices, type SenderFrame } from './fake-electron.test-support.ts';

const appTopFrame: SenderFrame = { url: 'app://kiosk/index.html', parent: null };
const FORBIDDEN = { ok: false, error: { code: 'forbidden', message: 'not allowed from this frame' } };

function bridge() {
  const ipcMain = new FakeIpcMain();
  const fake = fakeKioskServices();
  registerBridgeIpc(ipcMain.electron, fake.services);
  return { ipcMain, ...fake };
}

describe('bridge IPC: who may call', () => {
  it("hands a call from the app's top frame to the dispatcher and answers with its result", async () => {
    const { ipcMain, dispatch } = bridge();
    await expect(ipcMain.invoke(INVOKE_CHANNEL, appTopFrame, 'getAppInfo', {})).resolves.toEqual({ ok: true, value: 'dispatched' });
    expect(dispatch).toHaveBeenCalledWith('getAppInfo', {}, expect.any(BridgeConnection));
  });

  it('gives each window its own bridge connection, the same for all its calls, and a new one after the window is gone', async () => {
    const { ipcMain, dispatch } = bridge();
    const other = new FakeWebContents();
    await ipcMain.invoke(INVOKE_CHANNEL, appTopFrame, 'getAppInfo', {});
    await ipcMain.invoke(INVOKE_CHANNEL, appTopFrame, 'getSettings', {});
    await ipcMain.invokeFrom(other, INVOKE_CHANNEL, appTopFrame, 'getAppInfo', {});
    other.destroy();
    await ipcMain.invokeFrom(other, INVOKE_CHANNEL, appTopFrame, 'getAppInfo', {});
    const [first, second, otherWindow, afterDestroy] = dispatch.mock.calls.map((call) => call[2]);
    expect(second).toBe(first);
    expect(otherWindow).not.toBe(first);
    expect(afterDestroy).not.toBe(otherWindow);
  });

  it.each<[string, SenderFrame | null]>([
    ['a subframe of the app', { url: 'app://kiosk/index.html', parent: appTopFrame }],
    ['a foreign subframe', { url: 'https://evil.example/', parent: appTopFrame }],
    ['a foreign top frame', { url: 'https://evil.example/', parent: null }],
    ['a look-alike host', { url: 'app://kiosk.evil.example/', parent: null }],
    ['credentials in front of another host', { url: 'app://kiosk@evil/', parent: null }],
    ['another app:// host', { url: 'app://evil/', parent: null }],
    ['a file:// page', { url: 'file:///index.html', parent: null }],
    ['a frame that is already gone', null],
  ])('refuses %s without dispatching', async (_name, frame) => {
    const { ipcMain, dispatch, logger } = bridge();
    await expect(ipcMain.invoke(INVOKE_CHANNEL, frame, 'getAppInfo', {})).resolves.toEqual(FORBIDDEN);
    expect(dispatch).not.toHaveBeenCalled();
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'bridge.foreign_frame', call: 'getAppInfo' } })]);
  });

  it('logs at most 80 characters of a refused call name', async () => {
    const { ipcMain, logger } = bridge();
    await ipcMain.invoke(INVOKE_CHANNEL, { url: 'https://evil.example/', parent: null }, 'x'.repeat(500), {});
    expect(logger.lines[0]!.fields).toEqual({ event: 'bridge.foreign_frame', call: 'x'.repeat(80) });
  });
});

describe('bridge IPC: events to the window', () => {
  const scan: Scan = { value: '4006381333931', source: 'serial', symbology: 'E0', at: 1_700_000_000_000 };

  function forwarded() {
    const contents = new FakeWebContents();
    const fake = fakeKioskServices();
    forwardBridgeEvents(contents.electron, fake.services);
    return { contents, events: fake.services.events };
  }

  it("sends main's events to the window on the event channel", () => {
    const { contents, events } = forwarded();
    events.emit('scan', scan);
    expect(contents.send).toHaveBeenCalledWith(EVENT_CHANNEL, 'scan', scan);
  });

  it('unsubscribes once the window is destroyed', () => {
    const { contents, events } = forwarded();
    contents.destroy();
    events.emit('scan', scan);
    expect(contents.send).not.toHaveBeenCalled();
    // Not merely skipped: the listener is gone, so it never even looks at the window again.
    expect(contents.isDestroyed).not.toHaveBeenCalled();
  });
});
