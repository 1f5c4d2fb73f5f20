import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A virtual serial cable for tests: two linked ptys made by `socat`. Open `scannerPath` the way
 * the app opens a hand scanner (it is a real tty, so termios and the serialport binding work);
 * bytes passed to `write()` come out of it, as if a scanner had sent them.
 *
 *   const pty = await openPtyPair();
 *   scanner = new SerialScanner({ path: pty.scannerPath, terminator: 'CR' });
 *   await pty.write('2700000000017\r');
 *   await pty.close();
 *
 * Unplug and replug: `close()` removes the device (the links vanish, the open port sees a
 * hangup); `openPtyPair({ dir: pty.dir })` brings it back at the same `scannerPath`.
 *
 * A pty killed while the reader has a read in flight can leave the serialport binding spinning
 * without any event; wait until the reader has consumed what was written (e.g. its last scan
 * arrived, plus a few ms) before calling `close()` when the test is not about that.
 *
 * Needs `socat` (apt-get install socat).
 */
export interface PtyPair {
  /** Directory holding the two links; pass it to `openPtyPair` again to replug. */
  readonly dir: string;
  /** The end the code under test opens (a link to /dev/pts/N). */
  readonly scannerPath: string;
  /** The end `write()` writes to. */
  readonly writerPath: string;
  /** Sends bytes (strings as UTF-8) to `scannerPath`; one call is one write(2) on the pty. */
  write(data: string | Uint8Array): Promise<void>;
  /** Unplugs: stops socat, waits for it to exit and removes the links. Idempotent. */
  close(): Promise<void>;
}

export interface PtyPairOptions {
  /** Where the links go (created if missing); a fresh temp dir by default. */
  dir?: string;
  /** How long to wait for socat to create the links. */
  timeoutMs?: number;
}

export async function openPtyPair(options: PtyPairOptions = {}): Promise<PtyPair> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-pty-'));
  fs.mkdirSync(dir, { recursive: true });
  const scannerPath = path.join(dir, 'A');
  const writerPath = path.join(dir, 'B');
  // Links left behind by a socat that was killed hard could point at a reused /dev/pts/N.
  for (const link of [scannerPath, writerPath]) fs.rmSync(link, { force: true });

  const socat = spawn(
    'socat',
    ['-d', '-d', `pty,raw,echo=0,link=${scannerPath}`, `pty,raw,echo=0,link=${writerPath}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  socat.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let running = true;
  const exited = new Promise<void>((resolve) => {
    socat.once('close', resolve);
    socat.once('error', (error) => {
      stderr += error.message; // e.g. spawn socat ENOENT
      resolve();
    });
  }).then(() => {
    running = false;
  });

  try {
    await waitForLinks(() => running, [scannerPath, writerPath], options.timeoutMs ?? 5000);
  } catch (error) {
    await stop(socat, exited);
    throw new Error(`socat did not start: ${(error as Error).message}\n${stderr}`);
  }

  // O_NOCTTY: opening a tty must not make it this process's controlling terminal.
  const writer = await fs.promises.open(
    writerPath,
    fs.constants.O_WRONLY | fs.constants.O_NOCTTY,
  );
  let closing: Promise<void> | undefined;

  return {
    dir,
    scannerPath,
    writerPath,
    async write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      await writer.write(bytes);
    },
    close() {
      closing ??= (async () => {
        await writer.close().catch(() => undefined);
        await stop(socat, exited);
        for (const link of [scannerPath, writerPath]) fs.rmSync(link, { force: true });
        // Only an empty directory goes: a caller's own dir with other files stays.
        await fs.promises.rmdir(dir).catch(() => undefined);
      })();
      return closing;
    },
  };
}

async function waitForLinks(isRunning: () => boolean, links: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!links.every((link) => fs.existsSync(link))) {
    if (!isRunning()) throw new Error('socat exited');
    if (Date.now() > deadline) throw new Error(`no ${links.join(', ')} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function stop(socat: ChildProcess, exited: Promise<void>) {
  if (socat.exitCode === null && socat.signalCode === null) socat.kill('SIGTERM');
  await exited;
}
