import crypto from 'node:crypto';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BROWSER_BRIDGE_PATH, BrowserBridgeRequest } from '../../common/browser-bridge-protocol.std.ts';
import type { BridgeResult } from '../../common/contract.std.ts';
import { openBridge, startInProcessHost, type InProcessHost } from '../support/browser-host-in-process.node.ts';
import { bridgeCall, isClearAnswer, nastyString } from './bridge-inputs.node.ts';
import { recordFuzzInputs } from './fuzz-budget.node.ts';

const FRAME_SEED = 1_205_002;
const FRAME_INPUTS = 8_000;
const RAW_SEED = 1_205_003;
const RAW_INPUTS = 2_000;
const MAX_FRAME_BYTES = 1024 * 1024;

type Frame =
  | { kind: 'request'; id: number; call: unknown; input: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Uint8Array }
  | { kind: 'oversized'; length: number };

const frame: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 50, arbitrary: fc.tuple(fc.nat(), bridgeCall).map(([id, { call, payload }]): Frame => ({ kind: 'request', id, call, input: payload })) },
  { weight: 30, arbitrary: fc.oneof(nastyString, fc.json(), fc.jsonValue().map((value) => JSON.stringify(value))).map((text): Frame => ({ kind: 'text', text })) },
  { weight: 19, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes): Frame => ({ kind: 'binary', bytes })) },
  { weight: 1, arbitrary: fc.integer({ min: MAX_FRAME_BYTES + 1, max: MAX_FRAME_BYTES + 4_096 }).map((length): Frame => ({ kind: 'oversized', length })) },
);

/** What the host must do with a frame: answer the request with this id, or close with this code. */
type Expected = { answer: number } | { close: number };

function expectedFor(sent: Frame): Expected {
  if (sent.kind === 'binary') return { close: 1003 };
  if (sent.kind === 'oversized') return { close: 1009 };
  const text = sent.kind === 'request' ? JSON.stringify({ id: sent.id, call: sent.call, input: sent.input }) : sent.text;
  const request = BrowserBridgeRequest.safeParse(parseJson(text));
  return request.success ? { answer: request.data.id } : { close: 1007 };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(socket: WebSocket, sent: Frame) {
  if (sent.kind === 'request') socket.send(JSON.stringify({ id: sent.id, call: sent.call, input: sent.input }));
  else if (sent.kind === 'text') socket.send(sent.text);
  else if (sent.kind === 'binary') socket.send(sent.bytes, { binary: true });
  else socket.send('x'.repeat(sent.length));
}

/** The answer with `id`, or the code the connection closed with, whichever comes first. */
function outcome(socket: WebSocket, id: number | null): Promise<{ answer: BridgeResult<unknown> } | { close: number }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = parseJson(String(data)) as { id?: number; result?: BridgeResult<unknown> };
      if (id !== null && message?.id === id) done({ answer: message.result! });
    };
    const onClose = (code: number) => done({ close: code });
    const done = (result: { answer: BridgeResult<unknown> } | { close: number }) => {
      socket.off('message', onMessage);
      socket.off('close', onClose);
      resolve(result);
    };
    socket.on('message', onMessage);
    socket.on('close', onClose);
  });
}

describe('WebSocket fuzz', () => {
  let running: InProcessHost;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    running = await startInProcessHost();
    // A PIN the fuzzing connections never learn: restart and quit stay refused.
    const setup = await openBridge(running.host);
    await setup.call('setManagerPin', { pin: '97531864' });
    setup.close();
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
    await running?.close();
  });

  /** A fresh bridge connection still answers a call: the host survived. */
  async function expectHostAnswers() {
    const bridge = await openBridge(running.host);
    await expect(bridge.call('getAppInfo')).resolves.toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk' } });
    bridge.close();
    expect(unhandled).toEqual([]);
    expect(running.hostCalls).toEqual({ restart: 0, quit: 0 });
  }

  it(`answers or closes with the right code on each of ${FRAME_INPUTS} frames (seed ${FRAME_SEED})`, async () => {
    let bridge = await openBridge(running.host);
    let ran = 0;
    try {
      await fc.assert(
        fc.asyncProperty(frame, async (sent) => {
          ran++;
          if (bridge.socket.readyState !== WebSocket.OPEN) bridge = await openBridge(running.host);
          const expected = expectedFor(sent);
          const result = outcome(bridge.socket, 'answer' in expected ? expected.answer : null);
          send(bridge.socket, sent);
          const got = await result;
          if ('answer' in expected) return 'answer' in got && isClearAnswer(got.answer);
          return 'close' in got && got.close === expected.close;
        }),
        { seed: FRAME_SEED, numRuns: FRAME_INPUTS, endOnFailure: true },
      );
    } catch (error) {
      throw new Error(`WebSocket frame fuzz failed (seed ${FRAME_SEED}): ${String(error)}`);
    } finally {
      recordFuzzInputs('websocket', FRAME_SEED, ran);
      bridge.close();
    }
    expect(ran).toBe(FRAME_INPUTS);
    await expectHostAnswers();
  }, 60_000);

  /** A bridge connection at the TCP level: the handshake done, then whatever bytes the test writes. */
  async function rawBridge(): Promise<net.Socket> {
    const { origin, url } = running.host;
    const socket = net.connect({ host: '127.0.0.1', port: Number(new URL(origin).port) });
    socket.on('error', () => {});
    const key = crypto.randomBytes(16).toString('base64');
    socket.write(
      `GET ${BROWSER_BRIDGE_PATH}${new URL(url).search} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nOrigin: ${origin}\r\n` +
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`,
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('data', (chunk) => (String(chunk).startsWith('HTTP/1.1 101') ? resolve() : reject(new Error(String(chunk).slice(0, 80)))));
    });
    return socket;
  }

  /** Raw bytes where frames belong: masked and unmasked headers of any opcode and length, or noise. */
  const rawBytes = fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 300 }),
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 200 })).map(
      ([first, second, rest]) => Uint8Array.from([first, second, ...rest]),
    ),
  );

  it(`survives ${RAW_INPUTS} raw byte streams after the handshake, each cut off if the host waits for more (seed ${RAW_SEED})`, async () => {
    const inputs = fc.sample(rawBytes, { seed: RAW_SEED, numRuns: RAW_INPUTS });
    let ran = 0;
    const outcomes = { closed: 0, cutOff: 0 };
    try {
      // A hundred at a time: each waits a moment for the host to close before the test hangs up on it.
      for (let start = 0; start < inputs.length; start += 100) {
        await Promise.all(
          inputs.slice(start, start + 100).map(async (bytes) => {
            const socket = await rawBridge();
            ran++;
            const closed = new Promise<boolean>((resolve) => {
              socket.once('close', () => resolve(true));
              setTimeout(() => resolve(false), 150);
            });
            socket.write(bytes);
            if (await closed) outcomes.closed++;
            else outcomes.cutOff++;
            socket.destroy();
          }),
        );
      }
    } catch (error) {
      throw new Error(`WebSocket raw fuzz failed (seed ${RAW_SEED}): ${String(error)}`);
    } finally {
      recordFuzzInputs('websocket', RAW_SEED, ran);
    }
    expect(ran).toBe(RAW_INPUTS);
    expect(outcomes.closed).toBeGreaterThan(0);
    await expectHostAnswers();
  }, 60_000);

  it('survives half-open connections: silence after the upgrade, a frame cut off midway, a hang-up mid-handshake', async () => {
    const silent = await rawBridge();
    const cutOff = await rawBridge();
    // A masked text frame announcing 100 bytes, of which 10 arrive.
    cutOff.write(Uint8Array.from([0x81, 0x80 | 100, 1, 2, 3, 4, ...new Array(10).fill(65)]));
    const port = Number(new URL(running.host.origin).port);
    const hungUp = net.connect({ host: '127.0.0.1', port });
    hungUp.on('error', () => {});
    hungUp.write(`GET ${BROWSER_BRIDGE_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const socket of [silent, cutOff, hungUp]) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expectHostAnswers();
  });
});
