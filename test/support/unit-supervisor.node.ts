import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';

/** What a systemd unit says about restarting its service. */
export interface RestartPolicy {
  restart: string;
  restartSec: number;
  startLimitBurst: number;
  startLimitIntervalSec: number;
}

/** The [Unit]/[Service] restart settings of a shipped unit file. */
export function restartPolicyOf(unitFile: string): RestartPolicy {
  const text = fs.readFileSync(unitFile, 'utf8');
  const optional = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(text)?.[1]?.trim() ?? null;
  const value = (key: string) => {
    const found = optional(key);
    if (found === null) throw new Error(`${unitFile} has no ${key}=`);
    return found;
  };
  return {
    restart: value('Restart'),
    restartSec: Number(value('RestartSec')),
    // systemd's own default burst; an interval of 0 turns the limit off whatever the burst.
    startLimitBurst: Number(optional('StartLimitBurst') ?? 5),
    startLimitIntervalSec: Number(value('StartLimitIntervalSec')),
  };
}

export interface ServiceCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** stdout and stderr of every run, appended (as StandardOutput=append: would). */
  outputFile: string;
}

export interface Supervised {
  /** Who restarts it: a real `systemd-run --user` unit, or this test's stand-in. */
  readonly by: 'systemd-run --user' | 'test supervisor';
  /** The running service's pid, or null between runs. */
  mainPid(): number | null;
  stop(): Promise<void>;
}

/** Whether this machine has a user systemd to run a transient unit under. */
export function userSystemdAvailable(): boolean {
  const probe = spawnSync('systemd-run', ['--user', '--quiet', '--wait', '--collect', '/bin/true'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

/** Runs `service` under a real user systemd when there is one, else under the test supervisor, with `policy`. */
export function supervise(service: ServiceCommand, policy: RestartPolicy): Supervised {
  return userSystemdAvailable() ? underSystemd(service, policy) : underTestSupervisor(service, policy);
}

/** A transient unit with the shipped unit's restart settings. */
function underSystemd(service: ServiceCommand, policy: RestartPolicy): Supervised {
  const unit = `loyalty-kiosk-test-${crypto.randomUUID()}.service`;
  const run = spawnSync(
    'systemd-run',
    [
      '--user',
      `--unit=${unit}`,
      '--collect',
      `--working-directory=${service.cwd}`,
      ...Object.entries(service.env).map(([name, value]) => `--setenv=${name}=${value}`),
      ...[
        `Restart=${policy.restart}`,
        `RestartSec=${policy.restartSec}`,
        `StartLimitBurst=${policy.startLimitBurst}`,
        `StartLimitIntervalSec=${policy.startLimitIntervalSec}`,
        `StandardOutput=append:${service.outputFile}`,
        `StandardError=append:${service.outputFile}`,
      ].flatMap((property) => ['-p', property]),
      service.command,
      ...service.args,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`systemd-run failed: ${run.stderr}`);
  const systemctl = (...args: string[]) => spawnSync('systemctl', ['--user', ...args], { encoding: 'utf8' });
  return {
    by: 'systemd-run --user',
    mainPid: () => Number(systemctl('show', '--property=MainPID', '--value', unit).stdout.trim()) || null,
    stop: async () => void systemctl('stop', unit),
  };
}

/**
 * systemd's Restart=always, RestartSec= and start limit, for machines without a user systemd
 * (containers, CI): the service starts again RestartSec after any end, unless it started
 * StartLimitBurst times within StartLimitIntervalSec.
 */
function underTestSupervisor(service: ServiceCommand, policy: RestartPolicy): Supervised {
  if (policy.restart !== 'always') throw new Error(`the test supervisor only knows Restart=always, not ${policy.restart}`);
  const output = fs.openSync(service.outputFile, 'a');
  const starts: number[] = [];
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const start = () => {
    const now = Date.now();
    starts.push(now);
    if (starts.filter((at) => now - at < policy.startLimitIntervalSec * 1_000).length > policy.startLimitBurst) return;
    const running = spawn(service.command, service.args, { cwd: service.cwd, env: { ...process.env, ...service.env }, stdio: ['ignore', output, output] });
    child = running;
    running.once('exit', () => {
      child = null;
      if (!stopping) restartTimer = setTimeout(start, policy.restartSec * 1_000);
    });
  };
  start();
  return {
    by: 'test supervisor',
    mainPid: () => child?.pid ?? null,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const running = child;
      if (running) {
        const ended = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGTERM');
        await ended;
      }
      fs.closeSync(output);
    },
  };
}
