import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';

/**
 * A real Mosquitto for tests, on a free loopback port with its own config, password file
 * (`mosquitto_passwd -b`) and ACL. `restart()` stops it and starts it again on the same port.
 * Needs `mosquitto` (apt-get install mosquitto).
 */
export interface Mosquitto {
  readonly port: number;
  readonly url: string;
  /** Stops the broker for now (a broker outage); `restart()` brings it back on the same port. */
  down(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it for good and removes its files. */
  stop(): Promise<void>;
}

export interface MosquittoOptions {
  /** user → password */
  users?: Record<string, string>;
  /**
   * user → its topic rules: a topic filter it may read and write, or `read <filter>` / `write
   * <filter>` for one way only.
   */
  acl?: Record<string, string[]>;
  /** `pattern` rules for every client, as the README's (e.g. `readwrite loyalty-kiosk/%u/#`). */
  patterns?: string[];
  /** No password file and no ACL: anyone on loopback may connect (kioskctl's quick start). */
  anonymous?: boolean;
}

const MOSQUITTO = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

export async function startMosquitto(options: MosquittoOptions): Promise<Mosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mosquitto-'));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  const access = options.anonymous ? ['allow_anonymous true'] : accessFiles(dir, options);
  fs.writeFileSync(conf, [`listener ${port} 127.0.0.1`, ...access, 'persistence false', 'log_dest stderr', 'log_type error', ...runAsMe(), ''].join('\n'));

  let broker: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    broker = started;
    await untilListening(port).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${stderr}`);
    });
  };
  const stop = async () => {
    const running = broker;
    broker = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    down: stop,
    async restart() {
      await stop();
      await start();
    },
    async stop() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The password file and ACL of a broker that lets no one in anonymously. */
function accessFiles(dir: string, options: MosquittoOptions): string[] {
  const passwords = path.join(dir, 'passwords');
  fs.writeFileSync(passwords, '', { mode: 0o600 });
  for (const [user, password] of Object.entries(options.users ?? {})) execFileSync('mosquitto_passwd', ['-b', passwords, user, password]);
  const acl = path.join(dir, 'acl');
  const rule = (topic: string) => (/^(read|write|readwrite) /.test(topic) ? `topic ${topic}` : `topic readwrite ${topic}`);
  const users = Object.entries(options.acl ?? {}).map(([user, topics]) => [`user ${user}`, ...topics.map(rule)].join('\n'));
  const patterns = (options.patterns ?? []).map((pattern) => `pattern ${pattern}`);
  fs.writeFileSync(acl, [...users, patterns.join('\n')].join('\n\n') + '\n');
  return ['allow_anonymous false', `password_file ${passwords}`, `acl_file ${acl}`];
}

/** Started as root, Mosquitto switches to the `mosquitto` user, who cannot read our temp files. */
function runAsMe(): string[] {
  return process.getuid?.() === 0 ? ['user root'] : [];
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function untilListening(port: number, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (connected) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The next message `observer` sees on `topic` that `accept` takes, subscribed before `trigger` runs. */
export async function nextMessage(
  observer: MqttClient,
  topic: string,
  accept: (text: string) => boolean = () => true,
  trigger?: () => unknown,
): Promise<string> {
  const received = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing on ${topic}`)), 8_000);
    const onMessage = (at: string, payload: Buffer) => {
      if (at !== topic || !accept(payload.toString())) return;
      clearTimeout(timer);
      observer.off('message', onMessage);
      resolve(payload.toString());
    };
    observer.on('message', onMessage);
  });
  // A new subscription even when the observer has one: mqtt.js sends no SUBSCRIBE for a topic it
  // holds (say, resubscribed after a broker restart, its retained message come and gone before the
  // listener above), and the broker sends what it retains only for a SUBSCRIBE it receives.
  await observer.unsubscribeAsync(topic);
  await observer.subscribeAsync(topic, { qos: 1 });
  await trigger?.();
  return received;
}
