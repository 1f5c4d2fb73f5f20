import { describe, expect, it } from 'vitest';
import { FleetHealth } from './fleet-messages.std.ts';
import { discoveryMessages } from './home-assistant.std.ts';

const messages = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId: 'store-0042', version: '1.4.0' });
const configs = messages.map(({ topic, payload }) => ({ topic, component: topic.split('/')[1]!, config: JSON.parse(payload) as Record<string, unknown> }));

/** Every field of the health schema, as `a.b` paths: what a template may read from value_json. */
function healthPaths(schema: unknown = FleetHealth, prefix = ''): string[] {
  const shape = (schema as { unwrap?: () => unknown; shape?: Record<string, unknown> }).shape;
  const inner = (schema as { unwrap?: () => unknown }).unwrap?.();
  if (shape) return Object.entries(shape).flatMap(([key, field]) => [`${prefix}${key}`, ...healthPaths(field, `${prefix}${key}.`)]);
  return inner ? healthPaths(inner, prefix) : [];
}

describe('Home Assistant discovery (#23)', () => {
  it('puts each config on <prefix>/<component>/<node>/<object>/config, with the ids Home Assistant takes', () => {
    for (const { topic } of configs) expect(topic).toMatch(/^homeassistant\/(sensor|binary_sensor|button|update)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/config$/);
    const ids = configs.map(({ config }) => config.unique_id);
    expect(new Set(ids).size).toBe(ids.length);
    const other = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId: 'store-0043', version: '1.4.0' });
    expect(other.map(({ topic }) => topic).filter((topic) => messages.some((mine) => mine.topic === topic))).toEqual([]);
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

  it('has the fields each component requires: a state topic to read, or a command topic to press', () => {
    const of = (component: string) => configs.filter((entry) => entry.component === component);
    const byKind = { sensor: of('sensor'), binary_sensor: of('binary_sensor'), button: of('button'), update: of('update') };
    expect(new Set(configs.map(({ component }) => component)).size).toBe(4);
    for (const { config } of [...byKind.sensor, ...byKind.binary_sensor, ...byKind.update]) {
      expect(config).toMatchObject({ state_topic: 'loyalty-kiosk/store-0042/health', value_template: expect.stringContaining('value_json') });
    }
    for (const { config } of byKind.sensor.filter(({ config }) => config.device_class === 'enum')) expect(config.options).toEqual(expect.arrayContaining(['attract', 'visit', 'asleep']));
    expect(byKind.button.map(({ config }) => config.command_topic).sort()).toEqual(['loyalty-kiosk/store-0042/cmd/reload', 'loyalty-kiosk/store-0042/cmd/restart']);
  });

  it('covers the sensors the issue names, and reads only fields the health message has', () => {
    const names = configs.map(({ config }) => config.name);
    expect(names).toEqual(
      expect.arrayContaining(['Platform available', 'Platform latency', 'Voucher locks held', 'Screen', 'Minutes out of service', 'Last scan', 'Version', 'Restart', 'Reload', 'Update']),
    );
    const known = new Set(healthPaths());
    const read = configs.flatMap(({ config }) => [...String(config.value_template ?? '').matchAll(/value_json\.([A-Za-z.]+)/g)].map((match) => match[1]!));
    expect(read.length).toBeGreaterThan(10);
    expect(read.filter((path) => !known.has(path))).toEqual([]);
  });

  it('sends each button press with an id of its own, as the kiosk runs each command id once', () => {
    for (const { config } of configs.filter(({ component }) => component === 'button')) {
      expect(config.command_template).toMatch(/^\{"id":"home-assistant-[a-z]+-\{\{ now\(\)\.timestamp\(\) \}\}"\}$/);
    }
  });
});
