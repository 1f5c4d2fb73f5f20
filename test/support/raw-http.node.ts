import net from 'node:net';

export interface RawExchange {
  /** The status code of the answer, or null when the server closed without one. */
  status: number | null;
  /** Everything the server sent before it closed, or up to the end of its headers. */
  response: string;
}

/**
 * Writes `request` to 127.0.0.1:port byte for byte, as no HTTP client would, and reads the
 * answer's head (or whatever came before the server closed). Rejects when nothing happens in
 * `timeoutMs`: a server must answer or close, never hang on a bad request.
 */
export function rawExchange(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve({ status: status ? Number(status[1]) : null, response: received });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${timeoutMs} ms to ${JSON.stringify(String(request).slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) finish();
    });
    socket.once('close', finish);
    // A reset is also the server ending the exchange.
    socket.on('error', () => {});
    socket.once('connect', () => socket.end(request));
  });
}
