import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPtyPair, type PtyPair } from './pty.node.ts';

const opened: PtyPair[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((pty) => pty.close()));
});

async function open(dir?: string) {
  const pty = await openPtyPair(dir === undefined ? {} : { dir });
  opened.push(pty);
  return pty;
}

/** Reads from the scanner end until `expected` bytes arrived (raw tty reads may be partial). */
async function readExactly(path: string, expected: number): Promise<Buffer> {
  const handle = await fs.promises.open(path, fs.constants.O_RDONLY | fs.constants.O_NOCTTY);
  try {
    const buffer = Buffer.alloc(expected);
    let received = 0;
    while (received < expected) {
      const { bytesRead } = await handle.read(buffer, received, expected - received, null);
      received += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

describe('openPtyPair', () => {
  it('passes every byte value unchanged from the writer to the scanner end', async () => {
    const pty = await open();
    const all = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    const reading = readExactly(pty.scannerPath, all.length);
    await new Promise((resolve) => setTimeout(resolve, 50)); // reader attached before writing
    await pty.write(all);
    expect([...(await reading)]).toEqual([...all]);
  });

  it('removes the device on close and brings it back at the same path', async () => {
    const first = await open();
    await first.close();
    await first.close();
    expect(fs.existsSync(first.scannerPath)).toBe(false);

    const second = await open(first.dir);
    expect(second.scannerPath).toBe(first.scannerPath);
    expect(fs.statSync(second.scannerPath).isCharacterDevice()).toBe(true);
  });
});
