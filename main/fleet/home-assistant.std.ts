import { kioskIdLevel } from '../../common/config-schema.std.ts';
import { type FleetCommandName, fleetTopics, HOME_ASSISTANT_COMMANDS, PRINTER_HEALTH_STATES } from './fleet-messages.std.ts';

/** The printer's state from health; a kiosk older than the printer has none. */
const PRINTER_TEMPLATE = "{{ value_json.printer.state if value_json.printer else 'none' }}";

/** Off while the settings in force differ from what the fleet's desired settings ask (#35 §1); unknown from a kiosk older than them. */
const SETTINGS_IN_SYNC_TEMPLATE = "{{ None if not value_json.desiredSettings else ('OFF' if value_json.desiredSettings.state == 'drifting' else 'ON') }}";

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

/** What Home Assistant takes in a topic level and a unique id: letters, digits, `_` and `-`. */
const HOME_ASSISTANT_ID = /^[A-Za-z0-9_-]+$/;
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Why this kiosk can have no discovery configs, or null. The kiosk id goes into Home Assistant's
 * ids as it is, never changed: the broker's ACL names a kiosk's configs by its username (its id),
 * and a changed id could be another kiosk's.
 */
export function discoveryRefusal(kioskId: string): string | null {
  if (!kioskIdLevel.safeParse(kioskId).success) return `"${kioskId}" is no kiosk id`;
  if (!HOME_ASSISTANT_ID.test(kioskId)) {
    return `Home Assistant takes only letters, digits, _ and - in an id, and the kiosk id "${kioskId}" has others: give the kiosk such an id (fleet.kioskId, and the same broker username)`;
  }
  return null;
}

/**
 * Home Assistant MQTT discovery for one kiosk: one device, its availability from the status topic,
 * sensors read from the retained health, restart and reload buttons, and an update entity. A
 * button press carries a fresh id each time (its time): the kiosk runs each command id once.
 * Throws for a kiosk discoveryRefusal turns down, and for any config that would name a topic not
 * the kiosk's own.
 */
export function discoveryMessages({ discoveryPrefix, topicPrefix, kioskId, version }: DiscoveryOptions): DiscoveryMessage[] {
  const refusal = discoveryRefusal(kioskId);
  if (refusal !== null) throw new Error(refusal);
  const topics = fleetTopics(topicPrefix, kioskId);
  const deviceId = `${slug(topicPrefix)}-${kioskId}`;
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
    // A notification's trigger: a shopper at this kiosk asked for staff.
    ['binary_sensor', 'staff_called', 'Staff called', fromHealth("{{ 'ON' if value_json.staffCalled else 'OFF' }}", { device_class: 'problem', icon: 'mdi:account-alert' })],
    ['binary_sensor', 'settings_in_sync', 'Settings in sync', fromHealth(SETTINGS_IN_SYNC_TEMPLATE, { icon: 'mdi:sync' })],
    ['sensor', 'locks_held', 'Voucher locks held', fromHealth('{{ value_json.locksHeld }}', { state_class: 'measurement', icon: 'mdi:lock' })],
    [
      'sensor',
      'ledger_mismatches',
      'Ledger mismatches',
      fromHealth('{{ value_json.ledger.mismatches if value_json.ledger else None }}', { state_class: 'measurement', icon: 'mdi:scale-unbalanced' }),
    ],
    ['sensor', 'printer', 'Receipt printer', fromHealth(PRINTER_TEMPLATE, { device_class: 'enum', options: [...PRINTER_HEALTH_STATES], icon: 'mdi:printer-pos' })],
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
    ['button', 'restart', 'Restart', pressFor(topics, 'restart', { device_class: 'restart' })],
    ['button', 'reload', 'Reload', pressFor(topics, 'reload', { icon: 'mdi:reload' })],
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
  return entities.map(([component, key, name, fields]) => {
    const config = { name, unique_id: `${deviceId}_${key}`, ...shared, ...fields };
    assertOwnTopics(config, topics);
    return { topic: `${discoveryPrefix}/${component}/${deviceId}/${key}/config`, payload: JSON.stringify(config) };
  });
}

/** Every `…_topic` of a config is one of the kiosk's own: its status, its health, or Home Assistant's command topic for it. */
function assertOwnTopics(config: Record<string, unknown>, topics: ReturnType<typeof fleetTopics>) {
  const own = new Set([topics.status, topics.health, ...HOME_ASSISTANT_COMMANDS.map(topics.homeAssistantCommand)]);
  const foreign = Object.entries(config).find(([field, value]) => field.endsWith('_topic') && !own.has(String(value)));
  if (foreign) throw new Error(`a discovery config may name only the kiosk's own topics, not ${foreign[0]} ${String(foreign[1])}`);
}

/**
 * A button that sends the kiosk's command on Home Assistant's topic for it (the only one of the
 * kiosk's the broker lets Home Assistant write), waiting for idle as any fleet command does.
 */
function pressFor(topics: ReturnType<typeof fleetTopics>, command: FleetCommandName, extra: Record<string, unknown>) {
  return {
    command_topic: topics.homeAssistantCommand(command),
    command_template: `{"id":"home-assistant-${command}-{{ now().timestamp() }}"}`,
    retain: false,
    ...extra,
  };
}
