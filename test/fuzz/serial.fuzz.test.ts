import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scan } from '../../common/scan.std.ts';
import { recordingLogger } from '../support/factories.std.ts';
import { MAX_LINE_BYTES } from '../../main/scanner/line-framer.std.ts';
import { SerialScanDecoder } from '../../main/scanner/serial-scan-decoder.std.ts';
import { SerialScanner } from '../../main/scanner/serial-scanner.node.ts';
import { FUZZ_INPUTS_PER_SURFACE, recordFuzzInputs } from './fuzz-budget.node.ts';
import { openPtyPair } from '../support/pty.node.ts';

/**
 * Serial lines from a hand scanner, fuzzed through a real pty (socat) into the real SerialScanner:
 * arbitrary bytes, control characters, over-long lines, garbage without terminators and invalid
 * UTF-8, with valid codes (some with AIM prefixes) mixed in. Inputs are batched, many to one
 * write, each batch followed by a marker scan. The same bytes pushed through one decoder in one
 * piece are the oracle: whatever way the pty chunks the reads, the scans delivered must be
 * exactly those, each once; the line held never grows past MAX_LINE_BYTES; and nothing throws.
 */

const CR = 0x0d;
const LF = 0x0a;
const CONTROLS = [...Array.from({ length: 0x20 }, (_, byte) => byte), 0x7f];
const encode = (text: string) => new TextEncoder().encode(text);
const concat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** The bytes that end a line for this terminator setting. */
const lineEnd = (terminator: 'CR' | 'CRLF') => (terminator === 'CR' ? Uint8Array.of(CR) : Uint8Array.of(CR, LF));

/** One fuzz input: a piece of what a scanner (or a wrong baud rate, or a loose cable) might send. */
function serialInput(terminator: 'CR' | 'CRLF'): fc.Arbitrary<Uint8Array> {
  const end = lineEnd(terminator);
  const code = fc.stringMatching(/^[A-Z0-9]{6,14}$/);
  return fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...CONTROLS), { maxLength: 16 }).map((bytes) => Uint8Array.from(bytes)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => bytes.filter((byte) => byte !== CR && byte !== LF)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: MAX_LINE_BYTES + 1, max: MAX_LINE_BYTES + 2_000 }), fc.integer({ min: 0x20, max: 0x7e }), fc.boolean())
        .map(([length, byte, ended]) => concat([new Uint8Array(length).fill(byte), ended ? end : new Uint8Array()])),
    },
    { weight: 4, arbitrary: code.map((value) => concat([encode(value), end])) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(']E0', ']Q1', ']C1'), code).map(([aim, value]) => concat([encode(aim + value), end])) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => concat([encode(text), end])) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => concat([Uint8Array.from([0xc3, 0x28, ...bytes]), end])) },
  );
}

interface Problem {
  kind: string;
  detail: string;
}

const stopAfter: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stopAfter.splice(0)) await stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** Runs `count` inputs made from `seed` through a pty into a scanner set to `terminator`. */
async function fuzzSerial(seed: number, count: number, terminator: 'CR' | 'CRLF', batchSize = 250) {
  const problems: Problem[] = [];
  const onRejection = (reason: unknown) => problems.push({ kind: 'unhandled rejection', detail: String(reason) });
  const onException = (error: Error) => problems.push({ kind: 'uncaught exception', detail: String(error) });
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  stopAfter.push(async () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  });

  const pty = await openPtyPair();
  stopAfter.push(() => pty.close());
  const { logger, lines } = recordingLogger();
  // One fixed instant for the scanner and the oracle: de-duplication then depends on the bytes alone.
  const now = Date.UTC(2026, 10, 24);
  const scanner = new SerialScanner({ path: pty.scannerPath, terminator }, { logger, clock: () => now });
  stopAfter.unshift(() => scanner.stop());
  const scans: Scan[] = [];
  scanner.onScan((scan) => scans.push(scan));
  scanner.start();
  await waitFor('connected', () => scanner.status().state === 'connected');

  let mostHeld = 0;
  const sampler = setInterval(() => (mostHeld = Math.max(mostHeld, scanner.bufferedBytes)), 1);
  stopAfter.push(async () => clearInterval(sampler));

  const oracle = new SerialScanDecoder(terminator);
  const expected: string[] = [];
  const inputs = fc.sample(serialInput(terminator), { seed, numRuns: count });
  const end = lineEnd(terminator);
  let ran = 0;
  for (let start = 0, batch = 0; start < inputs.length; start += batchSize, batch += 1) {
    const marker = `FUZZ${seed}B${batch}`;
    const garbage = inputs.slice(start, start + batchSize);
    // The marker after the garbage: a line end first ends whatever line the garbage left open.
    const bytes = concat([...garbage, end, encode(marker), end]);
    for (const line of oracle.push(bytes, now)) if (line.kind === 'scan') expected.push(line.scan.value);
    await pty.write(bytes);
    ran += garbage.length;
    const context = `serial fuzz seed ${seed}, batch ${batch}`;
    await waitFor(`${context}: marker ${marker}`, () => scans.some((scan) => scan.value === marker)).catch((error: Error) => {
      throw new Error(`${error.message}; replay with seed ${seed}`);
    });
    expect(scans.map((scan) => scan.value), context).toEqual(expected);
    expect(scans.filter((scan) => scan.value === marker), context).toHaveLength(1);
    expect(scanner.bufferedBytes, context).toBe(0);
  }
  // Idle before the pty goes: see test/support/pty.node.ts.
  await sleep(50);
  expect(scans.length, `seed ${seed}`).toBe(expected.length);
  expect(scans.every((scan) => scan.source === 'serial' && scan.value.length > 0), `seed ${seed}`).toBe(true);
  expect(mostHeld, `seed ${seed}: bytes held`).toBeLessThanOrEqual(MAX_LINE_BYTES);
  expect(scanner.status().state, `seed ${seed}`).toBe('connected');
  expect(lines.filter((line) => line.level === 'error'), `seed ${seed}: handler failures`).toEqual([]);
  expect(problems, `seed ${seed}`).toEqual([]);
  recordFuzzInputs('serial', seed, ran);
  return ran;
}

describe('serial scanner fuzz through a real pty', () => {
  const half = FUZZ_INPUTS_PER_SURFACE / 2;

  it(`takes ${half} inputs with CR line ends: every scan once and right, bounded memory, no crash`, async () => {
    expect(await fuzzSerial(0x5e71a1, half, 'CR')).toBe(half);
  });

  it(`takes ${half} inputs with CRLF line ends: every scan once and right, bounded memory, no crash`, async () => {
    expect(await fuzzSerial(0x5e71a2, half, 'CRLF')).toBe(half);
  });
});
