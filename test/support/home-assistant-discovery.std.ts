import { FleetHealth } from '../../main/fleet/fleet-messages.std.ts';

/** Every field of the health schema, as `a.b` paths: what a template may read from value_json. */
function healthPaths(schema: unknown = FleetHealth, prefix = ''): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const inner = (schema as { unwrap?: () => unknown }).unwrap?.();
  if (shape) return Object.entries(shape).flatMap(([key, field]) => [`${prefix}${key}`, ...healthPaths(field, `${prefix}${key}.`)]);
  return inner ? healthPaths(inner, prefix) : [];
}
const HEALTH_PATHS = new Set(healthPaths());

/** What each component must have for Home Assistant to take it: a topic to read, or one to press. */
const REQUIRED: Record<string, string[]> = {
  sensor: ['state_topic'],
  binary_sensor: ['state_topic'],
  update: ['state_topic'],
  button: ['command_topic'],
};

/**
 * Why Home Assistant would not take one discovery config as a kiosk's entity, or [] when it would:
 * the topic's shape, a name and unique id, the device, availability on the kiosk's status topic,
 * each component's required topic, and templates that read only fields the health message has.
 */
export function discoveryProblems(topic: string, payload: string, kiosk: { status: string; health: string; commands: string }): string[] {
  const match = /^[A-Za-z0-9_-]+\/(sensor|binary_sensor|button|update)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/config$/.exec(topic);
  if (!match) return [`${topic}: not <prefix>/<component>/<node_id>/<object_id>/config`];
  const component = match[1]!;
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return [`${topic}: the payload is no JSON`];
  }
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(`${topic}: ${what}`);
  need(typeof config.name === 'string' && config.name !== '', 'no name');
  need(typeof config.unique_id === 'string' && /^[A-Za-z0-9_-]+$/.test(config.unique_id), 'no unique_id (the device registry needs one)');
  const device = config.device as { identifiers?: unknown } | undefined;
  need(Array.isArray(device?.identifiers) && device.identifiers.length > 0, 'no device identifiers');
  need(config.availability_topic === kiosk.status, 'availability is not the kiosk status topic');
  for (const field of REQUIRED[component]!) need(typeof config[field] === 'string', `no ${field}`);
  if (component !== 'button') need(config.state_topic === kiosk.health, 'reads another topic than the kiosk health');
  if (component === 'button') need(String(config.command_topic).startsWith(kiosk.commands), 'presses another topic than the kiosk commands');
  if (config.device_class === 'enum') need(Array.isArray(config.options), 'an enum sensor without options');
  const read = [...String(config.value_template ?? '').matchAll(/value_json\.([A-Za-z.]+)/g)].map((found) => found[1]!);
  for (const path of read) need(HEALTH_PATHS.has(path), `reads value_json.${path}, which health does not have`);
  return problems;
}
