import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { DesiredSettingsLayers } from './desired-settings.node.ts';

const LAYERS = ['fleet/all/settings', 'fleet/group/pilot/settings', 'fleet/k1/settings'];
const layer = (values: unknown) => Buffer.from(JSON.stringify(values));

/** A kiosk's settings (with the keys a provisioning file would lock), and its layers on a fresh connection whose retained layers have all come. */
function kiosk(locked?: Record<string, unknown>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desired-'));
  const config = new ConfigStore({ dataDir, logger: silentLogger, locked });
  /** The same kiosk after a restart: its settings and what the fleet held, as kept on disk. */
  const restarted = () => new DesiredSettingsLayers({ config: new ConfigStore({ dataDir, logger: silentLogger, locked }), logger: silentLogger, heldFile: path.join(dataDir, 'held.json') });
  const desired = new DesiredSettingsLayers({ config, logger: silentLogger, heldFile: path.join(dataDir, 'held.json') });
  desired.connected(LAYERS);
  desired.settled();
  return { config, desired, dataDir, restarted };
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

  it('refuses a brand colour white text cannot be read on, keeps the kiosk\'s own, and reports why (#34 §5)', () => {
    const { config, desired } = kiosk();
    const before = config.get().brand.color;
    desired.take('fleet/all/settings', layer({ 'brand.color': '#ffd400', 'brand.name': 'Chain' }));
    expect(config.get().brand).toMatchObject({ color: before, name: 'Chain' });
    expect(desired.state()).toEqual({ state: 'drifting', drift: { 'brand.color': expect.stringMatching(/contrast 1\.\d:1 with white/) } });
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

  it('applies nothing until every retained layer has come, then each key straight at its strongest layer\'s value', () => {
    const { config, desired } = kiosk();
    desired.connected(LAYERS);
    const seen: number[] = [];
    config.onChange((current) => seen.push(current.idle.timeoutSeconds));
    desired.take('fleet/all/settings', layer({ 'idle.timeoutSeconds': 90 }));
    desired.take('fleet/group/pilot/settings', layer({ 'idle.timeoutSeconds': 45 }));
    expect(seen).toEqual([]);
    desired.settled();
    expect(seen).toEqual([45]);
  });

  it('gives a key no layer asks any more back to what the kiosk had before the fleet set it, after a restart too', () => {
    const { config, desired, restarted } = kiosk();
    const defaultName = config.get().brand.name;
    config.set('idle.timeoutSeconds', 75);
    desired.take('fleet/all/settings', layer({ 'idle.timeoutSeconds': 45, 'brand.name': 'Chain' }));
    desired.take('fleet/k1/settings', layer({ 'idle.timeoutSeconds': 30 }));
    expect(config.get().idle.timeoutSeconds).toBe(30);
    // Removed from the kiosk's own layer: the fleet's still asks 45; removed from that too: back to 75.
    desired.take('fleet/k1/settings', Buffer.alloc(0));
    expect(config.get().idle.timeoutSeconds).toBe(45);
    desired.take('fleet/all/settings', layer({ 'brand.name': 'Chain' }));
    expect(config.get().idle.timeoutSeconds).toBe(75);
    expect(desired.state()).toEqual({ state: 'applied', drift: {} });

    // The kiosk is off while the fleet's layer goes: at its next connect, with no layer left, its name goes back.
    const later = restarted();
    later.connected(LAYERS);
    later.settled();
    expect(new ConfigStore({ dataDir: path.dirname(config.path), logger: silentLogger }).get().brand.name).toBe(defaultName);
  });

  it('leaves a key the provisioning file locked since as provisioned, and forgets the fleet held it', () => {
    const { desired, dataDir } = kiosk();
    desired.take('fleet/all/settings', layer({ 'idle.timeoutSeconds': 45 }));
    const locked = new ConfigStore({ dataDir, logger: silentLogger, locked: { 'idle.timeoutSeconds': 20 } });
    const later = new DesiredSettingsLayers({ config: locked, logger: silentLogger, heldFile: path.join(dataDir, 'held.json') });
    later.connected(LAYERS);
    later.settled();
    expect(locked.get().idle.timeoutSeconds).toBe(20);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'held.json'), 'utf8'))).toEqual({});
  });
});
