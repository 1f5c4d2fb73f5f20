import mqtt, { type MqttClient } from 'mqtt';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sampleHealth } from '../../../test/support/fleet-health-sample.std.ts';
import { startMosquitto, type Mosquitto } from '../../../test/support/mosquitto.node.ts';
import { connectOperator, Deadline, FleetTimeout, followFleet } from './fleet-operator.node.ts';

const PREFIX = 'loyalty-kiosk';

describe('the deadline of a fleet command (#28 §7)', () => {
  afterEach(() => void vi.useRealTimers());

  it('passes on what settles in time, and past it says what did not happen; each wait gets only what is left', async () => {
    vi.useFakeTimers();
    const deadline = new Deadline(2_000);
    expect(await deadline.within(Promise.resolve('subscribed'), 'no subscription')).toBe('subscribed');
    await expect(deadline.within(Promise.reject(new Error('refused')), 'no subscription')).rejects.toThrow('refused');

    const first = deadline.within(new Promise(() => {}), 'the marker did not come back');
    const failed = expect(first).rejects.toThrow(new FleetTimeout('the marker did not come back within 2 s (--timeout)'));
    await vi.advanceTimersByTimeAsync(1_500);
    const second = deadline.within(new Promise(() => {}), 'no answer');
    const secondFailed = expect(second).rejects.toBeInstanceOf(FleetTimeout);
    await vi.advanceTimersByTimeAsync(500);
    await failed;
    await secondFailed;
    expect(deadline.remainingMs()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('followFleet against a real Mosquitto (#28 §7)', () => {
  let broker: Mosquitto;
  let ops: MqttClient;
  const operator = (username: string) => connectOperator({ url: broker.url, username, password: `${username}-pw`, topicPrefix: PREFIX }, 10_000).then(({ client }) => client);
  const bytesRead = (client: MqttClient) => (client.stream as Socket).bytesRead;

  beforeAll(async () => {
    broker = await startMosquitto({
      users: { ops: 'ops-pw', lossy: 'lossy-pw' },
      acl: {
        ops: [`${PREFIX}/#`],
        // Its marker is taken and never comes back, as from a broker dropping messages.
        lossy: [`read ${PREFIX}/+/status`, `read ${PREFIX}/+/health`, `write ${PREFIX}/.kioskctl/#`],
      },
    });
    ops = await mqtt.connectAsync(broker.url, { username: 'ops', password: 'ops-pw' });
    for (const kioskId of ['store-1', 'store-2', 'store-3']) {
      await ops.publishAsync(`${PREFIX}/${kioskId}/status`, 'online', { qos: 1, retain: true });
      await ops.publishAsync(`${PREFIX}/${kioskId}/health`, JSON.stringify(sampleHealth(kioskId)), { qos: 1, retain: true });
    }
  });

  afterAll(async () => {
    await ops?.endAsync();
    await broker?.stop();
  });

  it('never reads a 60 MB retained health: the broker keeps it from kioskctl, and one over 64 KiB is dropped unread', async () => {
    const huge = JSON.stringify(sampleHealth('store-huge', { version: 'x'.repeat(60 * 1024 * 1024) }));
    const big = JSON.stringify(sampleHealth('store-big', { version: 'x'.repeat(100 * 1024) }));
    await ops.publishAsync(`${PREFIX}/store-huge/health`, huge, { qos: 1, retain: true });
    await ops.publishAsync(`${PREFIX}/store-big/health`, big, { qos: 1, retain: true });
    for (const kioskId of ['store-huge', 'store-big']) await ops.publishAsync(`${PREFIX}/${kioskId}/status`, 'online', { qos: 1, retain: true });
    const client = await operator('ops');
    try {
      const { records } = await followFleet(client, PREFIX, { deadline: new Deadline(10_000) });
      expect(records.get('store-huge')).toEqual({ status: 'online', health: null });
      expect(records.get('store-big')).toEqual({ status: 'online', health: null });
      expect(records.get('store-1')?.health?.version).toBe('1.4.0');
      // All kioskctl took in: the small healths and the 100 kB one, never the 60 MB.
      expect(bytesRead(client)).toBeLessThan(1_000_000);
    } finally {
      await client.endAsync(true);
      for (const kioskId of ['store-huge', 'store-big']) {
        await ops.publishAsync(`${PREFIX}/${kioskId}/health`, '', { qos: 1, retain: true });
        await ops.publishAsync(`${PREFIX}/${kioskId}/status`, '', { qos: 1, retain: true });
      }
    }
  });

  it('keeps at most the kiosks it may, and says the broker held more', async () => {
    const client = await operator('ops');
    try {
      const fleet = await followFleet(client, PREFIX, { deadline: new Deadline(10_000), maxKiosks: 2 });
      expect(fleet.records.size).toBe(2);
      expect(fleet.full).toBe(true);
    } finally {
      await client.endAsync(true);
    }
  });

  it('ends by its deadline when the marker never comes back and the messages never stop', async () => {
    // A live fleet: a status every 100 ms, so no quiet second ever comes.
    const flood = setInterval(() => void ops.publish(`${PREFIX}/store-flood/status`, 'online'), 100);
    const client = await operator('lossy');
    try {
      await expect(followFleet(client, PREFIX, { deadline: new Deadline(1_500) })).rejects.toThrow(
        new FleetTimeout("the broker did not send every kiosk's status and health (it may be dropping messages) within 1.5 s (--timeout)"),
      );
    } finally {
      clearInterval(flood);
      await client.endAsync(true);
    }
  });
});
