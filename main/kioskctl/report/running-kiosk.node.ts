import net from 'node:net';
import { ControlAnswer, type ControlRequest } from '../../../common/control-protocol.std.ts';
import { dataFiles } from '../../paths/data-files.node.ts';

/** How long kioskctl waits for the running kiosk's answer (a Z is quick; a busy disk may not be). */
const ANSWER_WITHIN_MS = 30_000;

/**
 * Asks the kiosk running on `dataDir` over its socket (main/control/), and parses its answer:
 * a kiosk's answer is checked like any other input. Rejects with a sentence when there is no
 * kiosk to ask, or no answer comes.
 */
export function askRunningKiosk(dataDir: string, request: ControlRequest, withinMs = ANSWER_WITHIN_MS): Promise<ControlAnswer> {
  const socketPath = dataFiles(dataDir).controlSocket;
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(socketPath, () => socket.write(`${JSON.stringify(request)}\n`));
    socket.setEncoding('utf8');
    socket.setTimeout(withinMs, () => {
      socket.destroy();
      reject(new Error(`the running kiosk did not answer within ${withinMs / 1000} s`));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => reject(new Error(`the running kiosk cannot be reached at ${socketPath} (${error.code ?? error.message})`)));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => {
      const answer = ControlAnswer.safeParse(safeJson(received.trim()));
      if (answer.success) resolve(answer.data);
      else reject(new Error('the running kiosk answered something kioskctl cannot read (a kiosk of another version?)'));
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
