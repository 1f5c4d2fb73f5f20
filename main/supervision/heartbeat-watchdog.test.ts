import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';

interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** From the child saying it blocks its event loop (or started, when healthy) to its end. */
  afterMs: number;
}

/** Runs test/support/watchdog-child.node.ts in a real Node process and waits for its end. */
function runChild(
  how: 'block' | 'block-briefly' | 'healthy',
  timeoutMs: number,
  runMs: number,
  who: 'watchdog' | 'services' | 'failed-start' = 'watchdog',
): Promise<ChildEnd> {
  const args = ['--import', 'tsx', 'test/support/watchdog-child.node.ts', who, how, String(timeoutMs), String(runMs)];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  let markedAt = 0;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === (how === 'healthy' ? 'watching' : 'blocking')) markedAt = Date.now();
  });
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr, afterMs: Date.now() - markedAt })));
}

describe('main heartbeat watchdog', () => {
  it('ends a process whose event loop is stuck, within its timeout and a margin, saying why on stderr', async () => {
    const end = await runChild('block', 1_000, 300);
    expect(end.signal).toBe('SIGKILL');
    expect(end.afterMs).toBeGreaterThanOrEqual(900);
    expect(end.afterMs).toBeLessThan(1_000 + 1_500);
    expect(end.stderr).toMatch(/^kiosk watchdog: the main thread missed its heartbeat for \d+ ms; ending the process for the supervisor to restart\n$/);
  }, 20_000);

  it('is started by the kiosk services: a host whose main thread is stuck is ended', async () => {
    const end = await runChild('block', 1_000, 300, 'services');
    expect(end.signal).toBe('SIGKILL');
    expect(end.afterMs).toBeLessThan(1_000 + 1_500);
    expect(end.stderr).toMatch(/kiosk watchdog: the main thread missed its heartbeat/);
  }, 30_000);

  it('is stopped by a start of the services that failed: the process hosting them lives on', async () => {
    const end = await runChild('block-briefly', 500, 0, 'failed-start');
    expect(end).toMatchObject({ code: 0, signal: null, stderr: '' });
  }, 30_000);

  it('leaves a healthy process alone well past its timeout (and does not keep it alive)', async () => {
    const end = await runChild('healthy', 300, 2_000);
    expect(end).toMatchObject({ code: 0, signal: null, stderr: '' });
  }, 20_000);
});
