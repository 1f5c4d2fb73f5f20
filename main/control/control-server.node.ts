import fs from 'node:fs';
import net from 'node:net';
import { CONTROL_IDLE_MS, CONTROL_REQUEST_MAX_BYTES, ControlRequest, type ControlAnswer, type ControlError } from '../../common/control-protocol.std.ts';
import type { ShiftReport } from '../../common/report-views.std.ts';
import type { Logger } from '../logging/logger.std.ts';

export interface ControlHandlers {
  /** Throws ControlRefusal to answer with its code. */
  closeShift: () => Promise<ShiftReport>;
}

/** A request refused with a code kioskctl shows (busy: try again; unavailable: the ledger cannot take it). */
export class ControlRefusal extends Error {
  constructor(
    readonly code: ControlError['code'],
    message: string,
  ) {
    super(message);
  }
}

export interface ControlServer {
  close(): Promise<void>;
}

/**
 * kioskctl's way into the running kiosk (common/control-protocol.std.ts): a UNIX socket in the
 * data folder, readable and writable by the kiosk's user only, as the folder itself is. Nothing
 * from it is trusted: one line a connection, capped, parsed, answered with a clear error; no input
 * stops the server. A socket file left by a kiosk that died is replaced: this kiosk holds the folder.
 */
export async function startControlServer({ socketPath, handlers, logger }: { socketPath: string; handlers: ControlHandlers; logger: Logger }): Promise<ControlServer> {
  const log = logger.child({ part: 'control' });
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => serve(socket, handlers, log));
  server.on('error', (error) => log.error('the kioskctl socket failed', { event: 'control.failed', error: String(error) }));
  // No process-wide umask change (it would reach every file made meanwhile): the folder is 0700,
  // so nobody else can reach the socket before it is made 0600.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  log.info('kioskctl can reach the running kiosk', { event: 'control.listening' });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

function serve(socket: net.Socket, handlers: ControlHandlers, log: Logger): void {
  let received = '';
  let answered = false;
  const answer = (reply: ControlAnswer) => {
    if (answered) return;
    answered = true;
    socket.end(`${JSON.stringify(reply)}\n`);
  };
  const refuse = (code: ControlError['code'], message: string) => answer({ ok: false, error: { code, message } });
  socket.setEncoding('utf8');
  socket.setTimeout(CONTROL_IDLE_MS, () => {
    refuse('invalid', 'no request line in time');
    socket.destroy();
  });
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (answered) return;
    received += chunk;
    const end = received.indexOf('\n');
    if (end === -1) {
      if (Buffer.byteLength(received) > CONTROL_REQUEST_MAX_BYTES) refuse('invalid', `a request is one line of at most ${CONTROL_REQUEST_MAX_BYTES} bytes`);
      return;
    }
    void handle(received.slice(0, end), handlers, log).then(answer);
  });
}

async function handle(line: string, handlers: ControlHandlers, log: Logger): Promise<ControlAnswer> {
  let request: ControlRequest;
  try {
    request = ControlRequest.parse(JSON.parse(line));
  } catch {
    log.warn('kioskctl sent no request the kiosk knows', { event: 'control.refused', code: 'invalid' });
    return { ok: false, error: { code: 'invalid', message: 'not a request: one JSON line such as {"call":"closeShift"}' } };
  }
  try {
    const value = await handlers[request.call]();
    log.info('kioskctl request answered', { event: 'control.answered', call: request.call });
    return { ok: true, value };
  } catch (error) {
    const code = error instanceof ControlRefusal ? error.code : 'internal';
    log.warn('kioskctl request refused', { event: 'control.refused', call: request.call, code });
    return { ok: false, error: { code, message: error instanceof ControlRefusal ? error.message.slice(0, 500) : 'the kiosk could not do it: see its log' } };
  }
}
