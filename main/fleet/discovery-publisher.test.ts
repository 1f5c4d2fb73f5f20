import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShippedMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { until } from '../../test/support/until.std.ts';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { hasEvent, linesOf } from '../../test/support/factories.std.ts';
import { DISCOVERY_RECORD_MAX_BYTES, discoveryPublisher } from './discovery-publisher.node.ts';
import type { RetainedPublish } from './fleet-client.node.ts';
import { discoveryMessages } from './home-assistant.std.ts';

const configsOf = (kioskId: string) => discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId, version: '1.4.0' });
const recordIn = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'discovery-record-')), 'fleet-discovery.json');

/** Home Assistant's configs on the shipped broker, published as a kiosk does at each connect. */
describe('the Home Assistant discovery record (#28 §9, §12)', () => {
  let broker: Mosquitto;
  let homeAssistant: MqttClient;
  /** What the broker keeps under homeassistant/, as Home Assistant sees it. */
  const retained = new Map<string, string>();
  const kiosks = ['store-1', 'store-2'];

  const login = (username: string) => mqtt.connectAsync(broker.url, { username, password: `${username}-pw`, protocolVersion: 5, reconnectPeriod: 0 });
  const retainedPublish = (client: MqttClient): RetainedPublish => async (topic, payload) => void (await client.publishAsync(topic, payload, { qos: 1, retain: true }));
  const keptFor = (kioskId: string) => [...retained].filter(([topic, payload]) => topic.includes(`/loyalty-kiosk-${kioskId}/`) && payload !== '').length;

  beforeAll(async () => {
    broker = await startShippedMosquitto(Object.fromEntries(['homeassistant', ...kiosks].map((user) => [user, `${user}-pw`])));
    homeAssistant = await login('homeassistant');
    homeAssistant.on('message', (topic, payload) => retained.set(topic, payload.toString()));
    await homeAssistant.subscribeAsync('homeassistant/#', { qos: 1 });
  });

  afterAll(async () => {
    await homeAssistant?.endAsync();
    await broker?.stop();
  });

  it('publishes the new configs after a change of kiosk id and username, and names the old ones it may not remove', async () => {
    const record = recordIn();
    const logger = recordingLogger();
    const publish = discoveryPublisher(record, logger);
    const before = await login('store-1');
    await publish(configsOf('store-1'), retainedPublish(before));
    await before.endAsync();
    await until(() => keptFor('store-1') === configsOf('store-1').length);

    // Provisioned anew: another kiosk id, and its own broker user, on the same data folder.
    const after = await login('store-2');
    try {
      await publish(configsOf('store-2'), retainedPublish(after));
    } finally {
      await after.endAsync();
    }
    await until(() => keptFor('store-2') === configsOf('store-2').length);
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(configsOf('store-2').map(({ topic }) => topic));
    const [left] = linesOf(logger.lines, 'fleet.discovery.left_on_broker');
    expect(left?.fields?.topics).toEqual(configsOf('store-1').map(({ topic }) => topic));
  });

  it('removes every config when switched off right after it was switched on, the first run still writing its record (ci31)', async () => {
    const record = recordIn();
    const publish = discoveryPublisher(record, recordingLogger());
    const kiosk = await login('store-2');
    const retainedByKiosk = retainedPublish(kiosk);
    // As two fleet links, one closing as the next connects: neither waits for the other.
    const switchedOn = publish(configsOf('store-2'), retainedByKiosk);
    const switchedOff = publish([], retainedByKiosk);
    await Promise.all([switchedOn, switchedOff]);
    await kiosk.endAsync();
    await until(() => [...retained].filter(([topic]) => topic.includes('/loyalty-kiosk-store-2/')).length === configsOf('store-2').length && keptFor('store-2') === 0);
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual([]);
  });

  it('remembers each config before it goes out: a run cut short still leaves them on record to remove', async () => {
    const record = recordIn();
    const publish = discoveryPublisher(record, recordingLogger());
    let sent = 0;
    const cutShort: RetainedPublish = async () => {
      if (++sent > 2) throw new Error('the link closed');
    };
    await expect(publish(configsOf('store-1'), cutShort)).rejects.toThrow('the link closed');
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(configsOf('store-1').map(({ topic }) => topic));
  });

  it('sets aside a record that names a wildcard, is damaged, too large or a link: the kiosk stays connected and publishes its configs', async () => {
    const elsewhere = path.join(os.tmpdir(), `discovery-elsewhere-${process.pid}.json`);
    fs.writeFileSync(elsewhere, JSON.stringify(['homeassistant/sensor/loyalty-kiosk-store-2/version/config']));
    const plant: Array<[string, (file: string) => void]> = [
      ['a wildcard topic', (file) => fs.writeFileSync(file, JSON.stringify(['homeassistant/+/loyalty-kiosk-store-1/version/config']))],
      ['a wildcard level', (file) => fs.writeFileSync(file, JSON.stringify(['homeassistant/#']))],
      ['no JSON', (file) => fs.writeFileSync(file, '["homeassistant/')],
      ['too large', (file) => fs.writeFileSync(file, JSON.stringify(Array.from({ length: 2_000 }, (_, index) => `homeassistant/sensor/x${'y'.repeat(40)}/${index}/config`)))],
      ['a link', (file) => fs.symlinkSync(elsewhere, file)],
    ];
    expect(fs.statSync(elsewhere).size).toBeLessThan(DISCOVERY_RECORD_MAX_BYTES);
    const kiosk = await login('store-1');
    let dropped = false;
    kiosk.on('close', () => (dropped = true));
    try {
      for (const [what, planted] of plant) {
        const record = recordIn();
        planted(record);
        const logger = recordingLogger();
        await discoveryPublisher(record, logger)(configsOf('store-1'), retainedPublish(kiosk));
        expect({ what, dropped, warned: hasEvent(logger.lines, 'fleet.discovery.set_aside') }).toEqual({ what, dropped: false, warned: true });
        expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(configsOf('store-1').map(({ topic }) => topic));
      }
    } finally {
      await kiosk.endAsync();
      fs.rmSync(elsewhere, { force: true });
    }
  });
});
