import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createKioskApi } from './bridge.std.ts';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../common/contract.std.ts';

// Only the contract-built object crosses into the page; ipcRenderer itself never does.
contextBridge.exposeInMainWorld(
  'kiosk',
  createKioskApi({
    invoke: (call, input) => ipcRenderer.invoke(INVOKE_CHANNEL, call, input),
    subscribe(listener) {
      const forward = (_event: IpcRendererEvent, name: string, payload: unknown) => listener(name, payload);
      ipcRenderer.on(EVENT_CHANNEL, forward);
      return () => ipcRenderer.off(EVENT_CHANNEL, forward);
    },
  }),
);
