import { describe, expect, it } from 'vitest';
import { discoveryProblems } from '../../test/support/home-assistant-discovery.std.ts';
import { discoveryMessages, discoveryRefusal } from './home-assistant.std.ts';
import { PRINTER_HEALTH_STATES } from './fleet-messages.std.ts';

const messages = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId: 'store-0042', version: '1.4.0' });
const configs = messages.map(({ topic, payload }) => ({ topic, component: topic.split('/')[1]!, config: JSON.parse(payload) as Record<string, unknown> }));

describe('Home Assistant discovery (#23)', () => {
  it('puts each config on <prefix>/<component>/<node>/<object>/config, with the ids Home Assistant takes', () => {
    for (const { topic } of configs) expect(topic).toMatch(/^homeassistant\/(sensor|binary_sensor|button|update)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/config$/);
    const ids = configs.map(({ config }) => config.unique_id);
    expect(new Set(ids).size).toBe(ids.length);
    const other = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId: 'store-0043', version: '1.4.0' });
    expect(other.map(({ topic }) => topic).filter((topic) => messages.some((mine) => mine.topic === topic))).toEqual([]);
  });

  it('has a receipt printer sensor whose states are exactly those health can say (#31 §3)', () => {
    const printer = configs.find(({ topic }) => topic.endsWith('/printer/config'));
    expect(printer).toMatchObject({ component: 'sensor', config: { device_class: 'enum', options: [...PRINTER_HEALTH_STATES] } });
  });

  it('has a Staff called problem sensor, on while a shopper\'s call stands (#33 §11)', () => {
    const staff = configs.find(({ topic }) => topic.endsWith('/staff_called/config'));
    expect(staff).toMatchObject({ component: 'binary_sensor', config: { name: 'Staff called', device_class: 'problem', value_template: "{{ 'ON' if value_json.staffCalled else 'OFF' }}" } });
  });

  it('has a Settings in sync sensor, off while the settings in force differ from the desired ones, unknown from a kiosk older than them (#35 §1)', () => {
    const inSync = configs.find(({ topic }) => topic.endsWith('/settings_in_sync/config'));
    expect(inSync).toMatchObject({
      component: 'binary_sensor',
      config: { name: 'Settings in sync', state_topic: 'loyalty-kiosk/store-0042/health', value_template: "{{ None if not value_json.desiredSettings else ('OFF' if value_json.desiredSettings.state == 'drifting' else 'ON') }}" },
    });
  });

  it('makes one device, available by the kiosk status topic', () => {
    for (const { config } of configs) {
      expect(config).toMatchObject({
        name: expect.any(String),
        availability_topic: 'loyalty-kiosk/store-0042/status',
        payload_available: 'online',
        payload_not_available: 'offline',
        device: { identifiers: ['loyalty-kiosk-store-0042'], name: 'Loyalty kiosk store-0042', sw_version: '1.4.0' },
      });
    }
  });

  it('has what Home Assistant requires of each component, reading only fields the health message has', () => {
    const kiosk = { status: 'loyalty-kiosk/store-0042/status', health: 'loyalty-kiosk/store-0042/health', commands: 'loyalty-kiosk/store-0042/ha/' };
    expect(messages.flatMap(({ topic, payload }) => discoveryProblems(topic, payload, kiosk))).toEqual([]);
    expect(new Set(configs.map(({ component }) => component))).toEqual(new Set(['sensor', 'binary_sensor', 'button', 'update']));
    // The checker finds what Home Assistant would refuse.
    const broken = JSON.stringify({ ...configs[0]!.config, availability_topic: 'elsewhere', value_template: '{{ value_json.nothing }}' });
    expect(discoveryProblems(configs[0]!.topic, broken, kiosk)).toHaveLength(2);
  });

  it('covers the sensors, buttons and update entity the issue names', () => {
    expect(configs.map(({ config }) => config.name)).toEqual(
      expect.arrayContaining(['Platform available', 'Platform latency', 'Voucher locks held', 'Screen', 'Minutes out of service', 'Last scan', 'Version', 'Restart', 'Reload', 'Update']),
    );
  });

  it('presses its buttons on Home Assistant\'s topic for this kiosk alone, and names no other topic (#28 §2)', () => {
    const topicFields = configs.flatMap(({ config }) => Object.entries(config).filter(([field]) => field.endsWith('_topic')).map(([, value]) => value));
    expect(new Set(topicFields)).toEqual(
      new Set(['loyalty-kiosk/store-0042/status', 'loyalty-kiosk/store-0042/health', 'loyalty-kiosk/store-0042/ha/restart', 'loyalty-kiosk/store-0042/ha/reload']),
    );
  });

  it('is never made for an id that is no kiosk\'s own, nor one Home Assistant would take only changed (#28 §2, §9)', () => {
    for (const kioskId of ['all', 'group', 'a+b', '#', 'north/all', '', 'store.0042', 'kiosk 7']) {
      expect({ kioskId, refused: discoveryRefusal(kioskId) !== null }).toEqual({ kioskId, refused: true });
      expect(() => discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId, version: '1.4.0' })).toThrow();
    }
    expect(discoveryRefusal('store.0042')).toMatch(/only letters, digits, _ and -/);
    for (const kioskId of ['store-0042', 'Kiosk_7']) expect(discoveryRefusal(kioskId)).toBeNull();
  });

  it('sends each button press with an id of its own, as the kiosk runs each command id once', () => {
    for (const { config } of configs.filter(({ component }) => component === 'button')) {
      expect(config.command_template).toMatch(/^\{"id":"home-assistant-[a-z]+-\{\{ now\(\)\.timestamp\(\) \}\}"\}$/);
    }
  });
});
