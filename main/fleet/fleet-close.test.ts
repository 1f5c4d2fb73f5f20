import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { sampleHealth } from '../../test/support/fleet-health-sample.std.ts';
import { until } from '../../test/support/until.std.ts';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { hasEvent } from '../../test/support/factories.std.ts';
import { type FleetClient, startFleetClient } from './fleet-client.node.ts';

const PREFIX = 'loyalty-kiosk';
const CLOSE_MS = 300;

/**
 * A kiosk whose broker goes away while it answers: its close still ends, within its deadline,
 * whether the link dropped (the answer waits in mqtt.js for a reconnect that never comes) or the
 * broker stopped answering (SIGSTOP: the socket stays open, nothing is acknowledged).
 */
describe('closing the fleet link when the broker is gone mid-answer (#28 §1)', () => {
  let broker: Mosquitto;
  let operator: MqttClient;
  let client: FleetClient | null = null;

  beforeAll(async () => {
    broker = await startShippedMosquitto({ 'store-1': 'store-1-pw', 'fleet-operator': 'operator-pw' });
    operator = await mqtt.connectAsync(broker.url, { username: 'fleet-operator', password: 'operator-pw', reconnectPeriod: 100 });
  });

  afterEach(async () => {
    broker.thaw();
    await client?.close();
    client = null;
  });

  afterAll(async () => {
    await operator?.endAsync(true);
    await broker?.stop();
  });

  /** A kiosk with one command, `slow`, that answers when the test lets it. */
  async function kioskAnswering() {
    const logger = recordingLogger();
    let started!: () => void;
    let answer!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const answered = new Promise<void>((resolve) => (answer = resolve));
    client = startFleetClient({
      url: broker.url,
      username: 'store-1',
      password: 'store-1-pw',
      kioskId: 'store-1',
      topicPrefix: PREFIX,
      health: async () => sampleHealth('store-1'),
      commands: {
        slow: async () => {
          started();
          await answered;
          return 'done';
        },
      },
      logger,
      reconnectMs: 100,
      closeMs: CLOSE_MS,
    });
    const kiosk = client;
    await until(() => kiosk.state().state === 'online');
    await operator.publishAsync(`${PREFIX}/store-1/cmd/slow`, '{"id":"slow-1"}', { qos: 1 });
    await running;
    /** Lets the command answer, and resolves once its answer is on its way. */
    const letItAnswer = async () => {
      answer();
      await until(() => hasEvent(logger.lines, 'fleet.command', { id: 'slow-1', ok: true }));
    };
    return { kiosk, logger, letItAnswer };
  }

  it('ends within its deadline when the link dropped with an answer in flight', async () => {
    const { kiosk, logger, letItAnswer } = await kioskAnswering();
    await broker.down();
    await until(() => kiosk.state().state !== 'online');
    await letItAnswer();
    try {
      await kiosk.close();
      expect(kiosk.state().state).toBe('closed');
      expect(hasEvent(logger.lines, 'fleet.goodbye_timeout')).toBe(true);
    } finally {
      await broker.restart();
    }
  });

  it('ends within its deadline when the broker stops answering, and the broker has it offline once it answers again', async () => {
    const { kiosk, letItAnswer } = await kioskAnswering();
    broker.freeze();
    await letItAnswer();
    await kiosk.close();
    expect(kiosk.state().state).toBe('closed');
    // The cut link, seen by the broker once it runs again: its Last Will, retained.
    const offline = nextMessage(operator, `${PREFIX}/store-1/status`, (text) => text === 'offline');
    broker.thaw();
    expect(await offline).toBe('offline');
  });
});
