import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';
import { PrinterConsole } from './printer.svelte.ts';

beforeAll(() => i18n.loadCatalogue('console'));

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><text>Test print</text></svg>';

function consoleWith() {
  const bridge = new FakeBridge({
    printTestSlip: ok('printTestSlip', { printed: false, reason: 'paper_out' }),
    getLastSlip: ok('getLastSlip', { svg: SVG }),
  });
  const through: string[] = [];
  const printer = new PrinterConsole({ bridge: bridge.api, call: (run) => (through.push('console'), run()) });
  return { bridge, printer, through };
}

describe('the console’s printer section', () => {
  it('prints a test slip through the console, says what came of it, and shows the slip that was sent', async () => {
    const { bridge, printer, through } = consoleWith();
    await printer.printTest();
    expect(bridge.calls.map((entry) => entry.name)).toEqual(['printTestSlip', 'getLastSlip']);
    expect(through).toHaveLength(2);
    expect(printer.test).toEqual({ printed: false, reason: 'paper_out' });
    expect(printer.lastSlip).toBe(SVG);
    expect(printer.busy).toBe(false);
  });

  it('says a refused test slip in plain words', async () => {
    const { bridge, printer } = consoleWith();
    bridge.answer('printTestSlip', refused('unavailable', 'the console is locked'));
    await printer.printTest();
    expect(printer.failure).toContain('the console is locked');
    expect(printer.test).toBeNull();
  });
});
