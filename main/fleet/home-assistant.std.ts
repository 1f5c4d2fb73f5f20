import { fleetTopics } from './fleet-messages.std.ts';

/** One retained discovery config: its topic, and its payload (JSON). */
export interface DiscoveryMessage {
  topic: string;
  payload: string;
}

export interface DiscoveryOptions {
  /** fleet.homeAssistant.prefix */
  discoveryPrefix: string;
  topicPrefix: string;
  kioskId: string;
  version: string;
}

/** Health older than this makes the kiosk's sensors unavailable: it publishes every minute. */
const EXPIRE_AFTER_SECONDS = 300;

/** A topic level and unique id Home Assistant takes: letters, digits, `_` and `-`. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Home Assistant MQTT discovery for one kiosk: one device, its availability from the status topic,
 * sensors read from the retained health, restart and reload buttons, and an update entity. A
 * button press carries a fresh id each time (its time): the kiosk runs each command id once.
 */
export function discoveryMessages({ discoveryPrefix, topicPrefix, kioskId, version }: DiscoveryOptions): DiscoveryMessage[] {
  const topics = fleetTopics(topicPrefix, kioskId);
  const deviceId = slug(`${topicPrefix}-${kioskId}`);
  const shared = {
    availability_topic: topics.status,
    payload_available: 'online',
    payload_not_available: 'offline',
    device: { identifiers: [deviceId], name: `Loyalty kiosk ${kioskId}`, manufacturer: 'Loyalty Kiosk', model: 'Loyalty Kiosk', sw_version: version },
  };
  const fromHealth = (template: string, extra: Record<string, unknown> = {}) => ({
    state_topic: topics.health,
    value_template: template,
    expire_after: EXPIRE_AFTER_SECONDS,
    ...extra,
  });
  const entities: Array<[component: string, key: string, name: string, fields: Record<string, unknown>]> = [
    ['binary_sensor', 'platform', 'Platform available', fromHealth("{{ 'ON' if value_json.platform.available else 'OFF' }}", { device_class: 'connectivity' })],
    [
      'sensor',
      'platform_latency',
      'Platform latency',
      fromHealth('{{ value_json.platformProbe.latencyMs if value_json.platformProbe else None }}', { unit_of_measurement: 'ms', device_class: 'duration', state_class: 'measurement' }),
    ],
    ['sensor', 'locks_held', 'Voucher locks held', fromHealth('{{ value_json.locksHeld }}', { state_class: 'measurement', icon: 'mdi:lock' })],
    [
      'sensor',
      'screen',
      'Screen',
      fromHealth("{{ 'asleep' if value_json.asleep else value_json.screen }}", { device_class: 'enum', options: ['attract', 'visit', 'console', 'none', 'asleep'] }),
    ],
    [
      'sensor',
      'out_of_service',
      'Minutes out of service',
      fromHealth('{{ value_json.outOfServiceMinutes }}', { unit_of_measurement: 'min', device_class: 'duration', state_class: 'total_increasing' }),
    ],
    [
      'sensor',
      'last_scan',
      'Last scan',
      fromHealth("{{ (value_json.scanner.lastScanAt / 1000) | timestamp_custom('%Y-%m-%dT%H:%M:%S+00:00', false) if value_json.scanner.lastScanAt else None }}", {
        device_class: 'timestamp',
      }),
    ],
    ['sensor', 'version', 'Version', fromHealth('{{ value_json.version }}', { entity_category: 'diagnostic', icon: 'mdi:tag' })],
    ['button', 'restart', 'Restart', pressFor(topics.base, 'restart', { device_class: 'restart' })],
    ['button', 'reload', 'Reload', pressFor(topics.base, 'reload', { icon: 'mdi:reload' })],
    [
      'update',
      'update',
      'Update',
      {
        state_topic: topics.health,
        value_template:
          "{{ {'installed_version': value_json.update.currentVersion, 'latest_version': value_json.update.downloadedVersion or value_json.update.availableVersion or value_json.update.currentVersion, 'in_progress': value_json.update.state in ['downloading', 'installing']} | tojson }}",
        title: 'Loyalty Kiosk',
      },
    ],
  ];
  return entities.map(([component, key, name, fields]) => ({
    topic: `${discoveryPrefix}/${component}/${deviceId}/${key}/config`,
    payload: JSON.stringify({ name, unique_id: `${deviceId}_${key}`, ...shared, ...fields }),
  }));
}

/** A button that sends the kiosk's command, waiting for idle as any fleet command does. */
function pressFor(base: string, command: string, extra: Record<string, unknown>) {
  return {
    command_topic: `${base}/cmd/${command}`,
    command_template: `{"id":"home-assistant-${command}-{{ now().timestamp() }}"}`,
    retain: false,
    ...extra,
  };
}
