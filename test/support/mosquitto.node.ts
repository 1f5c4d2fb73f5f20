import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MqttClient } from 'mqtt';
import { freePort } from './free-port.node.ts';

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
  /**
   * SIGSTOP: the broker keeps every connection open and answers nothing (a peer that stopped
   * answering, as a frozen host or a cut that no side has noticed yet); `thaw()` lets it go on.
   */
  freeze(): void;
  thaw(): void;
  /** SIGHUP: the broker re-reads its password file and ACL, keeping every connection. */
  reload(): void;
  /** What the broker wrote to stderr since it started (warnings about its files, say). */
  log(): string;
  /** Stops it for good and removes its files. */
  stop(): Promise<void>;
}

export interface ShippedMosquitto extends Mosquitto {
  /** Runs deploy/mosquitto/fleet-user on this broker's files (`input`: its stdin); what it printed. */
  fleetUser(args: string[], input?: string): string;
}

export interface MosquittoOptions {
  /** user → password */
  users?: Record<string, string>;
  /**
   * user → its topic rules: a topic filter it may read and write, or `read <filter>` / `write
   * <filter>` for one way only.
   */
  acl?: Record<string, string[]>;
  /** `pattern` rules for every client, as docs/running-a-fleet.md's (e.g. `readwrite loyalty-kiosk/%u/#`). */
  patterns?: string[];
  /** No password file and no ACL: anyone on loopback may connect (kioskctl's quick start). */
  anonymous?: boolean;
}

const MOSQUITTO = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

export async function startMosquitto(options: MosquittoOptions): Promise<Mosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mosquitto-'));
  const port = await freePort();
  const access = options.anonymous ? ['allow_anonymous true'] : accessFiles(dir, options);
  return runBroker(dir, port, [`listener ${port} 127.0.0.1`, ...access, 'persistence false', 'log_dest stderr', 'log_type error', ...runAsMe()]);
}

/** The broker configuration the fleet ships (docs/running-a-fleet.md). */
export const SHIPPED_BROKER_DIR = fileURLToPath(new URL('../../deploy/mosquitto/', import.meta.url));

/**
 * Mosquitto exactly as `deploy/mosquitto/` configures a fleet's broker: its mosquitto.conf as it is,
 * with only the listener (a free loopback port, without the TLS files) and the folders put in a place
 * of the test's own; its acl, and every user in `users` added with its `fleet-user` as an installer
 * would (a tool when the ACL names a user block for it, else a kiosk). Started as root, the broker
 * leaves root for the `mosquitto` user as an installed one does, so it proves the files readable by
 * it. `passwordOnly` users get a password and nothing else (a login the installer never added with
 * the script, to show what the patterns alone allow).
 */
export async function startShippedMosquitto(users: Record<string, string>, options: { passwordOnly?: Record<string, string> } = {}): Promise<ShippedMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mosquitto-shipped-'));
  const port = await freePort();
  const files = { passwords: path.join(dir, 'loyalty-kiosk.passwd'), acl: path.join(dir, 'loyalty-kiosk.acl') };
  fs.copyFileSync(path.join(SHIPPED_BROKER_DIR, 'acl'), files.acl);
  const tools = new Set(fs.readFileSync(files.acl, 'utf8').split('\n').filter((line) => line.startsWith('user ')).map((line) => line.slice('user '.length)));
  const fleetUser = (args: string[], input = '') =>
    execFileSync(path.join(SHIPPED_BROKER_DIR, 'fleet-user'), args, { input, env: { ...process.env, MOSQUITTO_PASSWD_FILE: files.passwords, MOSQUITTO_ACL_FILE: files.acl } }).toString();
  for (const [user, password] of Object.entries(users)) fleetUser([tools.has(user) ? 'tool' : 'kiosk', user], `${password}\n`);
  for (const [user, password] of Object.entries(options.passwordOnly ?? {})) execFileSync('mosquitto_passwd', ['-b', files.passwords, user, password]);
  const shipped = fs.readFileSync(path.join(SHIPPED_BROKER_DIR, 'mosquitto.conf'), 'utf8').split('\n');
  const swapped: Record<string, string | null> = {
    listener: `listener ${port} 127.0.0.1`,
    certfile: null,
    keyfile: null,
    password_file: `password_file ${files.passwords}`,
    acl_file: `acl_file ${files.acl}`,
    persistence_location: `persistence_location ${dir}${path.sep}`,
  };
  const lines = shipped.flatMap((line) => {
    const key = line.split(' ')[0]!;
    return Object.hasOwn(swapped, key) ? (swapped[key] === null ? [] : [swapped[key]!]) : [line];
  });
  handOverToBrokerUser(dir);
  return { ...(await runBroker(dir, port, lines)), fleetUser };
}

/** As root, the broker's folder goes to the `mosquitto` user it runs as (the script made its files so). */
function handOverToBrokerUser(dir: string) {
  if (process.getuid?.() !== 0) return;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'mosquitto']).toString());
  fs.chownSync(dir, id('-u'), id('-g'));
}

/** Runs Mosquitto on `conf` (its lines) from `dir` until stopped; `dir` goes with it. */
async function runBroker(dir: string, port: number, conf: string[]): Promise<Mosquitto> {
  const confFile = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(confFile, [...conf, ''].join('\n'));

  let broker: ChildProcess | null = null;
  let stderr = '';
  const start = async () => {
    const started = spawn(MOSQUITTO, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    broker = started;
    await untilListening(port).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${stderr}`);
    });
  };
  const signal = (name: NodeJS.Signals) => {
    if (broker?.exitCode === null) broker.kill(name);
  };
  const stop = async () => {
    const running = broker;
    broker = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // A frozen broker would hold the SIGTERM until it runs again.
    running.kill('SIGCONT');
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
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    reload: () => signal('SIGHUP'),
    log: () => stderr,
    async stop() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The password file and ACL of a broker that lets no one in anonymously. */
function accessFiles(dir: string, options: MosquittoOptions): string[] {
  const passwords = passwordFile(dir, options.users ?? {});
  const acl = path.join(dir, 'acl');
  const rule = (topic: string) => (/^(read|write|readwrite) /.test(topic) ? `topic ${topic}` : `topic readwrite ${topic}`);
  const users = Object.entries(options.acl ?? {}).map(([user, topics]) => [`user ${user}`, ...topics.map(rule)].join('\n'));
  const patterns = (options.patterns ?? []).map((pattern) => `pattern ${pattern}`);
  fs.writeFileSync(acl, [...users, patterns.join('\n')].join('\n\n') + '\n');
  return ['allow_anonymous false', `password_file ${passwords}`, `acl_file ${acl}`];
}

/** A Mosquitto password file in `dir` with `users` (user → password). */
function passwordFile(dir: string, users: Record<string, string>): string {
  const passwords = path.join(dir, 'passwords');
  fs.writeFileSync(passwords, '', { mode: 0o600 });
  for (const [user, password] of Object.entries(users)) execFileSync('mosquitto_passwd', ['-b', passwords, user, password]);
  return passwords;
}

/** Started as root, Mosquitto switches to the `mosquitto` user, who cannot read our temp files. */
function runAsMe(): string[] {
  return process.getuid?.() === 0 ? ['user root'] : [];
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

/** The next message `observer` sees on `topic` that `accept` takes (within `timeoutMs`), subscribed before `trigger` runs. */
export async function nextMessage(
  observer: MqttClient,
  topic: string,
  accept: (text: string) => boolean = () => true,
  trigger?: () => unknown,
  timeoutMs = 8_000,
): Promise<string> {
  const received = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing on ${topic}`)), timeoutMs);
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
