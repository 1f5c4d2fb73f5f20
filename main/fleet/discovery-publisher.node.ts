import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurably } from '../../base/durable-file.node.ts';
import { serialQueue } from '../../base/queue.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { RetainedPublish } from './fleet-client.node.ts';
import type { DiscoveryMessage } from './home-assistant.std.ts';

/** Far more than the record of one kiosk's configs (ten topics) ever takes. */
export const DISCOVERY_RECORD_MAX_BYTES = 64 * 1024;

/**
 * A config topic the kiosk could have published: never a wildcard, which is no topic to publish
 * to (the broker drops a client that tries, at every connect if the record kept it).
 */
const ConfigTopic = z
  .string()
  .max(1024)
  .regex(/^[^#+\u0000]+\/config$/);
const PublishedTopics = z.array(ConfigTopic).max(100);

/** MQTT 5's reason code for a publish the broker's ACL turns down. */
const NOT_AUTHORIZED = 135;

/**
 * Publishes the discovery configs the kiosk wants now (none when discovery is off) and removes
 * those it published before and no longer wants (an empty retained payload), whatever changed
 * in between: discovery switched off, another kiosk id or prefix. `file` remembers what is out.
 * The new configs go first: an old one the broker does not let this kiosk remove (it was another
 * kiosk id and user) holds nothing up; it is named in the log, for an operator to clear.
 *
 * One run at a time, each reading the record the one before it wrote: discovery switched off just
 * after it was switched on must find the configs the first run put out (ci31 left all of them on
 * the broker). And each new config is on record before it goes out, so a link closed halfway
 * through still leaves a record of every config it may have published.
 */
export function discoveryPublisher(file: string, logger: Logger) {
  const runs = serialQueue();
  return (wanted: DiscoveryMessage[], publish: RetainedPublish): Promise<void> => runs.run(() => publishWanted(file, logger, wanted, publish));
}

async function publishWanted(file: string, logger: Logger, wanted: DiscoveryMessage[], publish: RetainedPublish): Promise<void> {
  const wantedTopics = new Set(wanted.map(({ topic }) => topic));
  const before = published(file, logger);
  if (before === null && wanted.length === 0) return;
  const unrecorded = [...wantedTopics].filter((topic) => !before?.includes(topic));
  if (unrecorded.length > 0) await writeFileDurably(file, `${JSON.stringify([...(before ?? []), ...unrecorded])}\n`);
  for (const { topic, payload } of wanted) await publish(topic, payload);
  const stale = (before ?? []).filter((topic) => !wantedTopics.has(topic));
  const { refused, failed } = await removeEach(stale, publish);
  // Tried again at the next connect: those that failed for a reason other than the ACL.
  await writeFileDurably(file, `${JSON.stringify([...wantedTopics, ...failed])}\n`);
  const removed = stale.length - refused.length - failed.length;
  if (removed > 0) logger.info('home assistant discovery removed', { configs: removed });
  if (refused.length > 0) logger.warn('home assistant discovery configs of before that this broker user may not remove stay on the broker: clear them there (an empty retained message)', { event: 'fleet.discovery.left_on_broker', topics: refused });
}

/** Removes each stale config; says which the broker refused (its ACL) and which failed otherwise. */
async function removeEach(stale: string[], publish: RetainedPublish) {
  const refused: string[] = [];
  const failed: string[] = [];
  for (const topic of stale) {
    await publish(topic, '').catch((error: unknown) => ((error as { code?: unknown }).code === NOT_AUTHORIZED ? refused : failed).push(topic));
  }
  return { refused, failed };
}

/** The topics the record names; null when there is none. A record that is damaged, too large or names a wildcard is set aside, and logged. */
function published(file: string, logger: Logger): string[] | null {
  const setAside = (reason: string) => {
    logger.warn('home assistant discovery record set aside: configs published before may stay on the broker', { event: 'fleet.discovery.set_aside', reason });
    return [];
  };
  let read: ReturnType<typeof readBoundedFile>;
  try {
    read = readBoundedFile(file, DISCOVERY_RECORD_MAX_BYTES);
  } catch (error) {
    return setAside(String(error));
  }
  if (read.kind === 'missing') return null;
  if (read.kind === 'refused') return setAside(read.reason);
  try {
    const topics = PublishedTopics.safeParse(JSON.parse(read.text));
    return topics.success ? topics.data : setAside(`not a list of config topics: ${topics.error.issues[0]?.message ?? 'invalid'}`);
  } catch {
    return setAside('not JSON');
  }
}
