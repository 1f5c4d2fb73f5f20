import { createContext } from 'svelte';
import type { BridgeResult, KioskApi } from '../../common/contract.std.ts';

/** A call through the console (ManagerConsole.call): one refused for a lapsed unlock brings the PIN pad back. */
export type ConsoleCall = <T>(run: () => Promise<BridgeResult<T>>) => Promise<BridgeResult<T>>;

/** What the console's managers are made from: the bridge, and the console's way of calling it. */
export type ConsoleLink = { bridge: KioskApi; call: ConsoleCall };

/** Set by ManagerConsole for everything under it: no console component reaches for the global `kiosk`. */
export const [consoleLink, provideConsoleLink] = createContext<ConsoleLink>();
