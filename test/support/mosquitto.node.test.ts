import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage, startMosquitto, type Mosquitto } from './mosquitto.node.ts';

describe('nextMessage on a real Mosquitto', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto({ anonymous: true });
  });
  afterAll(() => broker?.stop());

  it('gets a retained message the observer\'s standing subscription already received (a fresh-clone run lost one)', async () => {
    const observer = await mqtt.connectAsync(broker.url);
    try {
      // Subscribed already, and the retained message come and gone before anyone listened for it:
      // as after a broker restart, when mqtt.js resubscribes by itself.
      await observer.subscribeAsync('kiosk/status', { qos: 1 });
      const delivered = new Promise<void>((resolve) => observer.once('message', () => resolve()));
      await observer.publishAsync('kiosk/status', 'online', { qos: 1, retain: true });
      await delivered;
      await expect(nextMessage(observer, 'kiosk/status', (text) => text === 'online')).resolves.toBe('online');
    } finally {
      await observer.endAsync();
    }
  });
});
