import { beforeAll, describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';
import { SettingsForm } from './settings-form.svelte';

beforeAll(() => i18n.loadCatalogue('console'));

const settingsNamed = (name: string): ConsoleSettings => ({
  demo: true,
  config: KioskConfig.omit({ manager: true }).parse({ brand: { name } }),
  lockedKeys: [],
  secrets: { keychain: 'available', stored: { apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false } },
});

function formWith() {
  const bridge = new FakeBridge({
    getConsoleSettings: ok('getConsoleSettings', settingsNamed('Corner Shop')),
    updateSettings: ok('updateSettings', settingsNamed('Edited')),
    exportSettings: ok('exportSettings', { fileName: 'settings.json', content: '{}', delivery: 'download' }),
    importSettings: ok('importSettings', settingsNamed('Imported')),
  });
  const through: string[] = [];
  const form = new SettingsForm({ bridge: bridge.api, call: (run) => (through.push('console'), run()) }, ['brand.name']);
  return { bridge, form, through };
}

describe('the settings form', () => {
  it('loads, saves only what changed, and starts over from what main saved', async () => {
    const { bridge, form } = formWith();
    await form.load();
    form.set('brand.name', 'Edited');
    expect(await form.save()).toBe(true);
    expect(bridge.inputsOf('updateSettings')).toEqual([{ values: { 'brand.name': 'Edited' } }]);
    expect(form.value('brand.name')).toBe('Edited');
    expect(form.dirty).toBe(false);
  });

  it('saves a cleared field that may be empty as null (no header on the slip), and one that may not as typed', async () => {
    const { form } = formWith();
    await form.load();
    form.set('printer.header', '');
    form.set('printer.codePageNumber', '');
    form.set('brand.name', '');
    expect(form.changes).toEqual({ 'brand.name': '' });
    form.set('printer.header', 'Welcome');
    form.set('printer.codePageNumber', '19');
    expect(form.changes).toEqual({ 'brand.name': '', 'printer.header': 'Welcome', 'printer.codePageNumber': 19 });
  });

  it('drops the edits for imported settings, and keeps them when main refuses the file', async () => {
    const { bridge, form, through } = formWith();
    await form.load();
    form.set('brand.name', 'Typed');
    bridge.answer('importSettings', refused('validation', 'not a settings file'));
    expect((await form.importFile('{')).ok).toBe(false);
    expect(form.value('brand.name')).toBe('Typed');

    expect((await form.importFile('{}')).ok).toBe(true);
    expect(form.value('brand.name')).toBe('Imported');
    expect(form.dirty).toBe(false);
    expect((await form.exportFile()).ok).toBe(true);
    expect(through).toHaveLength(4);
  });
});
