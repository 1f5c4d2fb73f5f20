import crypto from 'node:crypto';

export interface BrokerCheckOptions {
  url: string;
  username: string | null;
  password: string | null;
  /**
   * The kiosk's own client id: the check uses another, so a broker that keys connections by client
   * id never drops the kiosk for it. (One that names them by user, as the shipped one does, would:
   * the doctor never checks while the kiosk is connected.)
   */
  clientIdPrefix: string;
  timeoutMs?: number;
}

/** CONNACK codes for refused credentials: 4/5 in MQTT 3.1.1, 134/135 in MQTT 5. */
const REFUSED_CODES = new Set([4, 5, 134, 135]);

/**
 * One connect to the fleet broker with the kiosk's credentials, and straight out again: nothing
 * published, no Last Will, nothing written. Says why the broker turned the kiosk down, never the password.
 */
export async function checkBrokerConnection(options: BrokerCheckOptions): Promise<{ connected: boolean; detail: string }> {
  const { host } = new URL(options.url);
  try {
    // Loaded here, not with the module: a kiosk without a fleet never loads mqtt.js.
    const { default: mqtt } = await import('mqtt');
    const client = await mqtt.connectAsync(
      options.url,
      {
        username: options.username ?? undefined,
        password: options.password ?? undefined,
        clientId: `${options.clientIdPrefix}-check-${crypto.randomBytes(4).toString('hex')}`,
        protocolVersion: 5,
        clean: true,
        connectTimeout: options.timeoutMs ?? 8_000,
        reconnectPeriod: 0,
      },
      false,
    );
    await client.endAsync();
    return { connected: true, detail: `connected to ${host}${options.username ? ` as ${options.username}` : ''}` };
  } catch (error) {
    return { connected: false, detail: `${host}: ${refusalInWords(error)}` };
  }
}

function refusalInWords(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'number' && REFUSED_CODES.has(code)) {
    return `not authorized (${message}): check fleet.mqtt.username and the mqtt-password secret`;
  }
  if (code === 'ECONNREFUSED') return 'nothing answers there (connection refused)';
  return message;
}
