import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface BrowserHostProcess {
  url: string;
  origin: string;
  dataDir: string;
  /** Printed in demo mode: the embedded sandbox's base URL and manifest path. */
  sandbox?: { baseUrl: string; manifestPath: string };
  stdout: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `start:browser --no-open --port 0` as its own process (built renderer required), the
 * way a kiosk image or a developer runs it, and waits for the printed launch URL.
 */
export async function startBrowserHostProcess(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<BrowserHostProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'main/browser-host/cli.node.ts', '--no-open', '--port', '0', '--data', dataDir, ...(options.args ?? [])],
    { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const lines = readline.createInterface({ input: child.stdout! });
  const ready = new Promise<{ url: string; sandbox?: BrowserHostProcess['sandbox'] }>((resolve, reject) => {
    let url: string | undefined;
    let sandbox: BrowserHostProcess['sandbox'];
    lines.on('line', (line) => {
      stdout.push(line);
      const sandboxLine = /^Sandbox: (\S+) manifest (.+)$/.exec(line);
      if (sandboxLine) sandbox = { baseUrl: sandboxLine[1]!, manifestPath: sandboxLine[2]! };
      const urlLine = /^Kiosk UI: (\S+)$/.exec(line);
      if (urlLine) url = urlLine[1];
      // The sandbox line, when there is one, follows the URL line straight away.
      if (url) setTimeout(() => resolve({ url: url!, sandbox }), 50);
    });
    child.once('exit', (code) => reject(new Error(`browser host exited (${code}): ${stderr.join('')}`)));
    setTimeout(() => reject(new Error(`browser host did not start: ${stderr.join('')}`)), 30_000);
  });
  const { url, sandbox } = await ready;

  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    sandbox,
    stdout,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
