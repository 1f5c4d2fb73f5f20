import fs from 'node:fs';
import { z } from 'zod';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { RetainedPublish } from './fleet-client.node.ts';
import type { DiscoveryMessage } from './home-assistant.std.ts';

const PublishedTopics = z.array(z.string());

/**
 * Publishes the discovery configs the kiosk wants now (none when discovery is off) and removes
 * those it published before and no longer wants (an empty retained payload), whatever changed
 * in between: discovery switched off, another kiosk id or prefix. `file` remembers what is out.
 */
export function discoveryPublisher(file: string, logger: Logger) {
  return async (wanted: DiscoveryMessage[], publish: RetainedPublish): Promise<void> => {
    const wantedTopics = new Set(wanted.map(({ topic }) => topic));
    const stale = published(file, logger).filter((topic) => !wantedTopics.has(topic));
    for (const topic of stale) await publish(topic, '');
    for (const { topic, payload } of wanted) await publish(topic, payload);
    if (wanted.length === 0 && !fs.existsSync(file)) return;
    writeFileDurablySync(file, `${JSON.stringify([...wantedTopics])}\n`);
    if (stale.length > 0) logger.info('home assistant discovery removed', { configs: stale.length });
  };
}

function published(file: string, logger: Logger): string[] {
  if (!fs.existsSync(file)) return [];
  try {
    return PublishedTopics.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (error) {
    logger.warn('home assistant discovery record unreadable: configs published before may stay on the broker', { error: String(error) });
    return [];
  }
}
