import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostics } from '../../common/manager-views.std.ts';
import { updatesNotChecked } from '../../common/update-state.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { DiagnosticsPanel } from './diagnostics.svelte.ts';
import type { ExportedFile } from './download.dom.ts';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';

beforeAll(() => i18n.loadCatalogue('console'));

const DIAGNOSTICS: Diagnostics = {
  version: '1.2.3',
  demo: true,
  platformOrigin: null,
  api: { reachable: true, latencyMs: 12, problem: null },
  secrets: { keychain: 'available', stored: { apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false } },
  scanner: { connection: 'keyboard', state: 'connected', path: null },
  log: { droppedLines: 0, lastProblem: null },
  logTail: ['started'],
  timeline: [{ at: 0, kind: 'started' }],
  update: updatesNotChecked('1.2.3', 'stable'),
  fleet: { state: 'off', lastError: null, broker: null, kioskId: null, lastHealthAt: null, recentCommands: [] },
  printer: { kind: 'preview', state: 'none', checkedAt: null },
};
const SAVED: ExportedFile = { fileName: 'diagnostics.json', content: '{}', delivery: 'saved', savedTo: '/home/kiosk/diagnostics.json' };

function panelWith() {
  const bridge = new FakeBridge({
    getDiagnostics: ok('getDiagnostics', DIAGNOSTICS),
    exportDiagnostics: ok('exportDiagnostics', SAVED),
    restartKiosk: ok('restartKiosk', null),
    quitKiosk: ok('quitKiosk', null),
  });
  const handedOver: ExportedFile[] = [];
  const panel = new DiagnosticsPanel({ bridge: bridge.api, call: (run) => run(), handOver: (file) => void handedOver.push(file) });
  return { bridge, panel, handedOver };
}

describe('the diagnostics panel', () => {
  it('loads, and keeps what it showed when a reload fails, with the problem above it', async () => {
    const { bridge, panel } = panelWith();
    const loading = panel.load();
    expect(panel.loading).toBe(true);
    await loading;
    expect(panel).toMatchObject({ loading: false, problem: null, diagnostics: { version: '1.2.3' } });

    bridge.answer('getDiagnostics', refused('unavailable', 'the keychain is locked'));
    await panel.load();
    expect(panel.diagnostics?.version).toBe('1.2.3');
    expect(panel.problem).toContain('the keychain is locked');

    await panel.load();
    expect(panel.problem).toBeNull();
  });

  it('hands the export over and says where it went; a refused one is only the problem', async () => {
    const { bridge, panel, handedOver } = panelWith();
    await panel.exportBundle();
    expect(handedOver).toEqual([SAVED]);
    expect(panel.exported).toContain('/home/kiosk/diagnostics.json');

    bridge.answer('exportDiagnostics', refused('forbidden', 'the console is locked'));
    await panel.exportBundle();
    expect(handedOver).toHaveLength(1);
    expect(panel.problem).toContain('the console is locked');
  });

  it('restarts or quits as asked, through the console', async () => {
    const { bridge } = panelWith();
    const through: string[] = [];
    const panel = new DiagnosticsPanel({
      bridge: bridge.api,
      call: (run) => (through.push('console'), run()),
      handOver: () => expect.unreachable(),
    });
    await panel.stop('quit');
    await panel.stop('restart');
    expect(bridge.names()).toEqual(['quitKiosk', 'restartKiosk']);
    expect(through).toEqual(['console', 'console']);
  });
});
