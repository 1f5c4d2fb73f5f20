import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { builtCli } from './built-cli.node.ts';

export interface BrowserHostProcess {
  url: string;
  origin: string;
  dataDir: string;
  /** Printed in demo mode: the embedded sandbox's base URL and manifest path. */
  sandbox?: { baseUrl: string; manifestPath: string };
  stdout: string[];
  /** The first process's exit code (null when a signal ended it). */
  exitCode: Promise<number | null>;
  /**
   * Every "Kiosk UI" address printed so far: a restart from the console prints its own, from a
   * new process that shares this one's output.
   */
  urls(): string[];
  /** Resolves when nothing writes to the output any more: this process and any it relaunched have ended. */
  outputClosed: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the built browser host (`start:browser`) with `--no-open --port 0` as its own process, the
 * way a kiosk image or a developer runs it, and waits for the printed launch URL. `entry` runs
 * another script with the same arguments (`npm start`'s launcher); `open` lets it open a browser.
 */
export async function startBrowserHostProcess(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; args?: string[]; entry?: string; open?: boolean } = {},
): Promise<BrowserHostProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // Another script (npm start's launcher) runs from source; the host itself as it is built.
      ...(options.entry ? ['--import', 'tsx', options.entry] : [builtCli('browser-host')]),
      ...(options.open ? [] : ['--no-open']),
      '--port',
      '0',
      '--data',
      dataDir,
      ...(options.args ?? []),
    ],
    { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const lines = readline.createInterface({ input: child.stdout! });
  const outputClosed = new Promise<void>((resolve) => lines.once('close', resolve));
  const ready = new Promise<{ url: string; sandbox?: BrowserHostProcess['sandbox'] }>((resolve, reject) => {
    let url: string | undefined;
    let sandbox: BrowserHostProcess['sandbox'];
    lines.on('line', (line) => {
      stdout.push(line);
      const sandboxLine = /^Sandbox: (\S+) manifest (.+)$/.exec(line);
      if (sandboxLine) sandbox = { baseUrl: sandboxLine[1]!, manifestPath: sandboxLine[2]! };
      const urlLine = /^Kiosk UI: (\S+)$/.exec(line);
      if (urlLine) url = urlLine[1];
      // The sandbox line, when there is one, comes in the same write as the URL line: readline has
      // handed it over before the next turn of the event loop, however late this process reads.
      if (url) setImmediate(() => resolve({ url: url!, sandbox }));
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
    exitCode,
    urls: () => stdout.flatMap((line) => /^Kiosk UI: (\S+)$/.exec(line)?.[1] ?? []),
    outputClosed,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exitCode;
    },
  };
}
