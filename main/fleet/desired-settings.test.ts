import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { DesiredSettingsLayers } from './desired-settings.node.ts';

const LAYERS = ['fleet/all/settings', 'fleet/group/pilot/settings', 'fleet/k1/settings'];
const layer = (values: unknown) => Buffer.from(JSON.stringify(values));

/** A kiosk's settings (with the keys a provisioning file would lock), and its layers on a fresh connection. */
function kiosk(locked?: Record<string, unknown>) {
  const config = new ConfigStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'desired-')), logger: silentLogger, locked });
  const desired = new DesiredSettingsLayers({ config, logger: silentLogger });
  desired.connected(LAYERS);
  return { config, desired };
}

describe('desired settings in layers (#35 §1)', () => {
  it('says none while no layer holds anything, and applies the later layer over the earlier', () => {
    const { config, desired } = kiosk();
    expect(desired.state()).toEqual({ state: 'none', drift: {} });
    desired.take('fleet/k1/settings', layer({ 'idle.timeoutSeconds': 45 }));
    desired.take('fleet/all/settings', layer({ 'idle.timeoutSeconds': 90, 'brand.name': 'Chain' }));
    expect(config.get().idle.timeoutSeconds).toBe(45);
    expect(config.get().brand.name).toBe('Chain');
    expect(desired.state()).toEqual({ state: 'applied', drift: {} });
    // Removed from the broker: the next layer down is what is asked.
    desired.take('fleet/k1/settings', Buffer.alloc(0));
    expect(config.get().idle.timeoutSeconds).toBe(90);
  });

  it('leaves a provisioning-locked key as provisioned, and applies the rest of the layer', () => {
    const { config, desired } = kiosk({ 'idle.timeoutSeconds': 30 });
    desired.take('fleet/all/settings', layer({ 'idle.timeoutSeconds': 90, 'brand.name': 'Chain' }));
    expect(config.get().idle.timeoutSeconds).toBe(30);
    expect(config.get().brand.name).toBe('Chain');
    expect(desired.state()).toEqual({ state: 'drifting', drift: { 'idle.timeoutSeconds': 'locked by the provisioning file' } });
  });

  it('applies every value the schema takes, whatever one beside it is refused', () => {
    const { config, desired } = kiosk();
    desired.take('fleet/group/pilot/settings', layer({ 'idle.timeoutSeconds': 'never', 'brand.name': 'Chain', 'no.such': 1 }));
    expect(config.get().brand.name).toBe('Chain');
    expect(desired.state()).toEqual({ state: 'drifting', drift: { 'idle.timeoutSeconds': expect.stringMatching(/idle\.timeoutSeconds/), 'no.such': 'refused: unknown setting' } });
  });

  it('ignores a layer that is no settings object or too large, and a topic that is none of this connection\'s, and says so', () => {
    const { config, desired } = kiosk();
    const before = config.get();
    desired.take('fleet/all/settings', Buffer.from('not json'));
    desired.take('fleet/k1/settings', layer({ 'brand.name': 'x'.repeat(70 * 1024) }));
    desired.take('fleet/k2/settings', layer({ 'brand.name': 'Other' }));
    expect(config.get()).toEqual(before);
    expect(desired.state()).toEqual({
      state: 'drifting',
      drift: { 'fleet/all/settings': expect.stringMatching(/^not a JSON object of settings/), 'fleet/k1/settings': expect.stringMatching(/^not a JSON object of settings/) },
    });
  });

  it('forgets what an earlier connection held: a layer removed meanwhile asks nothing any more', () => {
    const { desired } = kiosk();
    desired.take('fleet/all/settings', layer({ 'manager.pinHash': 'x' }));
    expect(desired.state().state).toBe('drifting');
    desired.connected(LAYERS);
    expect(desired.state()).toEqual({ state: 'none', drift: {} });
  });
});
