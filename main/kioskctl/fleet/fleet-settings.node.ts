import { printable, printableJson } from '../../../base/csv.std.ts';
import { isConfigKey, keptFromFleet, valueFromText } from '../../config/config-keys.std.ts';
import { type DesiredSettings, fleetWideTopics, MAX_SETTINGS_BYTES, readSettingsLayer } from '../../fleet/fleet-messages.std.ts';
import { formatTable } from '../table.std.ts';
import { followFleet, retainedOn } from './fleet-operator.node.ts';
import { rosterRows, type RosterRow, someKiosks } from './fleet-roster.std.ts';
import { connectionFor, type FleetContext, FleetRefusal, parse, SEND_EXIT, targetOf, timeoutOf, withOperator } from './kioskctl-fleet.node.ts';

/** `fleet settings set|show|diff …`. */
export function fleetSettings(context: FleetContext): Promise<number> {
  const run = { set: fleetSettingsSet, show: fleetSettingsShow, diff: fleetSettingsDiff }[context.args[0] ?? ''];
  if (!run) throw new FleetRefusal('expected fleet settings set, show or diff');
  return run(context);
}

/**
 * `fleet settings set <kioskId|--group G|--all> key=value… [--unset KEY]… [--clear]`: changes one
 * layer of the desired settings the broker keeps (retained) for the whole fleet, a group or one
 * kiosk. Every key is checked here first, as a kiosk checks it (no manager.* or fleet.*, known,
 * a value the schema takes); nothing is published unless all pass.
 */
async function fleetSettingsSet(context: FleetContext): Promise<number> {
  const { values, positionals } = parse(context.args.slice(1), { group: { type: 'string' }, all: { type: 'boolean' }, unset: { type: 'string', multiple: true }, clear: { type: 'boolean' } });
  const byTag = values.group !== undefined || values.all === true;
  const kioskId = byTag ? undefined : positionals[0];
  const pairs = byTag ? positionals : positionals.slice(1);
  const target = targetOf(values, kioskId);
  const changes = pairs.map(settingOf);
  const unset = values.unset ?? [];
  if (changes.length === 0 && unset.length === 0 && !values.clear) throw new FleetRefusal('expected fleet settings set <kioskId|--group G|--all> key=value… [--unset KEY]… [--clear]');
  const connection = await connectionFor(context, values);
  const topic = fleetWideTopics(connection.topicPrefix).settings(target);
  const layer = await withOperator(connection, timeoutOf(values), async (client, deadline) => {
    const held = values.clear ? {} : readLayer((await retainedOn(client, connection.topicPrefix, [topic], deadline)).get(topic));
    const next: DesiredSettings = { ...held, ...Object.fromEntries(changes) };
    for (const key of unset) delete next[key];
    const payload = Object.keys(next).length === 0 ? '' : JSON.stringify(next);
    if (payload.length > MAX_SETTINGS_BYTES) throw new FleetRefusal(`the layer would be over ${MAX_SETTINGS_BYTES / 1024} KiB, more than a kiosk reads`);
    // Retained: the desired state, kept by the broker for every kiosk that connects later.
    await deadline.within(client.publishAsync(topic, payload, { qos: 1, retain: true }), `the broker did not acknowledge the settings on ${topic}`);
    return next;
  });
  context.stdout(`${printable(`${topic}: ${Object.keys(layer).length === 0 ? 'no desired settings (removed)' : JSON.stringify(layer)}`)}\n`);
  return 0;
}

/** `key=value` as the key and the value the schema takes for it; refused when a kiosk would refuse it. */
function settingOf(pair: string): [string, unknown] {
  const split = pair.indexOf('=');
  if (split <= 0) throw new FleetRefusal(`"${printable(pair)}" is no key=value`);
  const key = pair.slice(0, split);
  if (keptFromFleet(key)) throw new FleetRefusal(`${key} is not set over the fleet (the PIN from the console or kioskctl, the broker from provisioning or kioskctl)`);
  if (!isConfigKey(key)) throw new FleetRefusal(`unknown setting "${printable(key)}"`);
  const parsed = valueFromText(key, pair.slice(split + 1));
  if (parsed === null) throw new FleetRefusal(`${key}: "${printable(pair.slice(split + 1))}" is no value this setting takes`);
  return [key, parsed.value];
}

/** The layer to change: none yet is empty; one a kiosk would ignore is refused, to be replaced whole. */
function readLayer(payload: Buffer | undefined): DesiredSettings {
  if (payload === undefined) return {};
  return readSettingsLayer(payload) ?? raise('the layer on the broker is no JSON object of settings (at most 64 KiB): replace it with --clear');
}

const raise = (message: string): never => {
  throw new Error(message);
};

/** `fleet settings show [--json]`: every layer of desired settings the broker keeps, the fleet's first, then each group's and each kiosk's. */
async function fleetSettingsShow(context: FleetContext): Promise<number> {
  const { values } = parse(context.args.slice(1), { json: { type: 'boolean' } });
  const connection = await connectionFor(context, values);
  const prefix = connection.topicPrefix;
  const filters = [`${prefix}/all/settings`, `${prefix}/group/+/settings`, `${prefix}/+/settings`];
  const held = await withOperator(connection, timeoutOf(values), (client, deadline) => retainedOn(client, prefix, filters, deadline));
  const layers = [...held].map(([topic, payload]) => ({ layer: layerName(prefix, topic), settings: readSettingsLayer(payload) })).sort((a, b) => layerRank(a.layer) - layerRank(b.layer) || a.layer.localeCompare(b.layer));
  if (values.json) context.stdout(`${printableJson(layers, 2)}\n`);
  else context.stdout(layers.length === 0 ? 'no desired settings on the broker\n' : formatTable([['LAYER', 'KEY', 'VALUE'], ...layers.flatMap(({ layer, settings }) => (settings === null ? [[layer, '-', 'not a JSON object of settings: kiosks ignore it']] : Object.entries(settings).map(([key, value]) => [layer, key, JSON.stringify(value)])))]));
  return 0;
}

/** `all`, `group/<g>` or the kiosk id, from a settings topic. */
const layerName = (prefix: string, topic: string) => topic.slice(prefix.length + 1, -'/settings'.length);
const layerRank = (layer: string) => (layer === 'all' ? 0 : layer.startsWith('group/') ? 1 : 2);

/**
 * `fleet settings diff [--group G] [--json]`: each kiosk whose settings in force are not what its
 * layers ask, and why (each key's reason as the kiosk says it; offline; too old to say). Exit 0
 * when every kiosk applies them, else 3.
 */
async function fleetSettingsDiff(context: FleetContext): Promise<number> {
  const { values } = parse(context.args.slice(1), { group: { type: 'string' }, json: { type: 'boolean' } });
  const connection = await connectionFor(context, values);
  const fleet = await withOperator(connection, timeoutOf(values), (client, deadline) => followFleet(client, connection.topicPrefix, { deadline }));
  const differing = rosterRows(fleet.records, Date.now(), values.group).flatMap((row) => diffLines(row));
  if (values.json) context.stdout(`${printableJson(differing, 2)}\n`);
  else context.stdout(formatTable([['KIOSK', 'KEY', 'WHY'], ...differing.map(({ kioskId, key, why }) => [kioskId, key, why])]));
  const kiosks = [...new Set(differing.map(({ kioskId }) => kioskId))];
  (values.json ? context.stderr : context.stdout)(`${printable(kiosks.length === 0 ? 'every kiosk has its desired settings in force' : `${kiosks.length} kiosks differ: ${someKiosks(kiosks)}`)}\n`);
  return kiosks.length === 0 ? 0 : SEND_EXIT.unanswered;
}

/** Why one kiosk's settings may not be what its layers ask: one line per key, and one for a kiosk that cannot say. */
function diffLines({ kioskId, status, settings, drift }: RosterRow): Array<{ kioskId: string; key: string; why: string }> {
  if (settings === null) return [{ kioskId, key: '-', why: 'its health does not say (none yet, or a kiosk older than desired settings)' }];
  const lines = Object.entries(drift).map(([key, why]) => ({ kioskId, key, why }));
  // Its health is from before it left: it applies the layers as they are when it connects again.
  return status === 'offline' ? [{ kioskId, key: '-', why: 'offline: it applies its layers when it connects' }, ...lines] : lines;
}
