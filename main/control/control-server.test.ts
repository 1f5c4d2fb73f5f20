import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_REQUEST_MAX_BYTES } from '../../common/control-protocol.std.ts';
import { hasEvent, recordingLogger, shiftReport, type LogLine } from '../../test/support/factories.std.ts';
import { ControlRefusal, startControlServer, type ControlHandlers, type ControlServer } from './control-server.node.ts';

const servers: ControlServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serverWith(handlers: Partial<ControlHandlers> = {}, logs: LogLine[] = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-'));
  const socketPath = path.join(dir, 'kioskctl.sock');
  const z = shiftReport({ kind: 'z', zNumber: 7 });
  const server = await startControlServer({ socketPath, handlers: { closeShift: async () => z, ...handlers }, logger: recordingLogger(logs).logger });
  servers.push(server);
  return { socketPath, z };
}

/** Sends `bytes` as they are and answers what comes back before the server closes the connection. */
function exchange(socketPath: string, bytes: string | Buffer, { end = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(socketPath, () => (end ? socket.end(bytes) : socket.write(bytes)));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

const answerOf = async (socketPath: string, bytes: string | Buffer) => JSON.parse(await exchange(socketPath, bytes)) as unknown;

describe("kioskctl's socket into the running kiosk (#30 §2)", () => {
  it("is the kiosk user's alone, and answers a Z asked for in one JSON line", async () => {
    const { socketPath, z } = await serverWith();
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    await expect(answerOf(socketPath, '{"call":"closeShift"}\n')).resolves.toEqual({ ok: true, value: z });
  });

  it('refuses whatever is not a request, clearly, and serves the next one', async () => {
    const { socketPath, z } = await serverWith();
    for (const garbage of ['not json\n', '{"call":"dropTables"}\n', '{"call":"closeShift","extra":1}\n', '[]\n', '\u0000\u00ff\n']) {
      await expect(answerOf(socketPath, garbage), garbage).resolves.toEqual({ ok: false, error: { code: 'invalid', message: expect.stringContaining('not a request') } });
    }
    // A line with no end past the cap: refused without waiting for the rest.
    const flood = Buffer.alloc(CONTROL_REQUEST_MAX_BYTES + 10, 'x');
    await expect(answerOf(socketPath, flood)).resolves.toMatchObject({ ok: false, error: { code: 'invalid' } });
    // Half a line, then gone: nothing to answer, and nothing broken.
    await expect(exchange(socketPath, '{"call":"clo', { end: true })).resolves.toBe('');
    await expect(answerOf(socketPath, '{"call":"closeShift"}\n')).resolves.toEqual({ ok: true, value: z });
  });

  it("passes a refusal's code on (busy while a lock is held), and never an internal error's text", async () => {
    const logs: LogLine[] = [];
    const busy = await serverWith({ closeShift: () => Promise.reject(new ControlRefusal('busy', 'a voucher lock is held')) }, logs);
    await expect(answerOf(busy.socketPath, '{"call":"closeShift"}\n')).resolves.toEqual({ ok: false, error: { code: 'busy', message: 'a voucher lock is held' } });
    expect(hasEvent(logs, 'control.refused', { code: 'busy' })).toBe(true);
    const broken = await serverWith({ closeShift: () => Promise.reject(new Error('SQLITE_IOERR at /secret/path')) });
    const answer = await answerOf(broken.socketPath, '{"call":"closeShift"}\n');
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(answer)).not.toContain('/secret/path');
  });

  it('replaces the socket file a kiosk that died left behind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-'));
    const socketPath = path.join(dir, 'kioskctl.sock');
    fs.writeFileSync(socketPath, 'left behind');
    servers.push(await startControlServer({ socketPath, handlers: { closeShift: async () => shiftReport({ kind: 'z', zNumber: 1 }) }, logger: recordingLogger().logger }));
    await expect(answerOf(socketPath, '{"call":"closeShift"}\n')).resolves.toMatchObject({ ok: true });
  });
});
