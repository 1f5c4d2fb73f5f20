import net from 'node:net';
import { SerialPort } from 'serialport';
import { escPosTokens } from './escpos-stream.std.ts';
import { openPtyPair } from './pty.node.ts';

/**
 * A stand-in ESC/POS receipt printer (an Epson TM as far as the kiosk can tell), on a socat pty or
 * a TCP port. It answers DLE EOT and, once GS a turns it on, Automatic Status Back; it prints
 * (records) what it is sent while it has paper and its cover is shut, holding the rest in its
 * buffer as a real printer does, and a slip counts as printed when its cut comes through. On
 * command it runs out of paper, opens its cover, or disappears in the middle of a slip.
 */
export interface StandInPrinter {
  /** Where the kiosk finds it: `printer.path` (pty) or `printer.host`/`printer.port` (TCP). */
  readonly settings: Record<string, unknown>;
  /** Every byte the kiosk sent, in order. */
  received(): Buffer;
  /** The slips that came out whole, each up to and including its cut. */
  readonly slips: Buffer[];
  /** Bytes printed after the last cut: a slip stopped half-way. */
  partial(): Buffer;
  setPaper(paper: 'ok' | 'near_end' | 'out'): void;
  setCover(open: boolean): void;
  /** Runs out of paper once `bytes` more bytes are printed. */
  runOutOfPaperAfter(bytes: number): void;
  /** Automatic Status Back on, as a printer set up so (DIP switch, or an earlier GS a) starts. */
  enableAutoStatus(): void;
  /** Goes away once `bytes` more bytes have arrived: the line drops and nothing more is answered. */
  vanishAfter(bytes: number): void;
  /** Resolves once `count` slips have come out. */
  slipsPrinted(count: number): Promise<Buffer[]>;
  /** Resolves once the bytes of `command` have arrived (a write is done for the kiosk before the printer has it). */
  receivedCommand(command: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const DONE_BYTE = 0x00;

/** The printer itself, whatever the line: bytes in, answers out. */
class PrinterModel {
  readonly slips: Buffer[] = [];
  #received: number[] = [];
  #pending: number[] = [];
  #printing: number[] = [];
  #paper: 'ok' | 'near_end' | 'out' = 'ok';
  #coverOpen = false;
  #autoStatus = false;
  #paperLeft = Number.POSITIVE_INFINITY;
  #vanishIn = Number.POSITIVE_INFINITY;
  gone = false;
  #waiters: Array<() => boolean> = [];

  constructor(
    private readonly answer: (bytes: Buffer) => void,
    private readonly hangUp: () => void,
  ) {}

  received = () => Buffer.from(this.#received);
  partial = () => Buffer.from(this.#printing);

  feed(chunk: Buffer): void {
    if (this.gone) return;
    for (const byte of chunk) {
      if (this.#vanishIn-- <= 0) return this.#vanish();
      this.#received.push(byte);
      this.#pending.push(byte);
    }
    this.#work();
    this.#wakeWaiters();
  }

  setPaper(paper: 'ok' | 'near_end' | 'out') {
    this.#paper = paper;
    if (paper !== 'out') this.#paperLeft = Number.POSITIVE_INFINITY;
    this.#statusChanged();
  }

  setCover(open: boolean) {
    this.#coverOpen = open;
    this.#statusChanged();
  }

  runOutOfPaperAfter(bytes: number) {
    this.#paperLeft = bytes;
  }

  enableAutoStatus() {
    this.#autoStatus = true;
  }

  vanishAfter(bytes: number) {
    this.#vanishIn = bytes;
  }

  slipsPrinted(count: number): Promise<Buffer[]> {
    return this.#until(() => this.slips.length >= count).then(() => this.slips.slice(0, count));
  }

  receivedCommand(command: Uint8Array): Promise<void> {
    return this.#until(() => this.received().includes(Buffer.from(command)));
  }

  /** Resolves once `holds` does, checked after every chunk and every slip. */
  #until(holds: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!holds()) return false;
        resolve();
        return true;
      };
      if (!check()) this.#waiters.push(check);
    });
  }

  #wakeWaiters(): void {
    this.#waiters = this.#waiters.filter((check) => !check());
  }

  get #online() {
    return this.#paper !== 'out' && !this.#coverOpen;
  }

  /**
   * Real-time commands (DLE ...) act at once wherever they are in the buffer; the rest is printed
   * in order while the printer is online, and waits in the buffer while it is not.
   */
  #work(): void {
    const tokens = escPosTokens(Buffer.from(this.#pending));
    const whole = tokens.reduce((length, token) => length + (token.kind === 'text' ? token.bytes.length : token.bytes.length), 0);
    const kept: number[] = [];
    let printingStopped = !this.#online;
    for (const token of tokens) {
      const bytes = token.kind === 'text' ? token.bytes : [...token.bytes];
      if (token.kind === 'command' && token.name.startsWith('DLE')) {
        this.#realTime(token.bytes);
        if (token.name === 'DLE DC4') {
          kept.length = 0;
          this.#printing = [];
        }
        continue;
      }
      if (printingStopped) {
        kept.push(...bytes);
        continue;
      }
      printingStopped = !this.#print(token, bytes);
    }
    // A command cut off at the end of a chunk waits for the rest of it.
    this.#pending = [...kept, ...this.#pending.slice(whole)];
  }

  /** Prints one token; false when the paper ran out in it (the rest of the buffer waits). */
  #print(token: ReturnType<typeof escPosTokens>[number], bytes: number[]): boolean {
    if (this.#paperLeft <= bytes.length && token.kind === 'text') {
      this.#printing.push(...bytes.slice(0, this.#paperLeft));
      this.#paperLeft = 0;
      this.setPaper('out');
      return false;
    }
    this.#paperLeft -= bytes.length;
    this.#printing.push(...bytes);
    if (token.kind === 'command') {
      if (token.name === 'GS a') this.#autoStatus = token.bytes[2] !== 0;
      if (token.name === 'GS r') this.answer(Buffer.from([DONE_BYTE | (this.#paper === 'near_end' ? 0x03 : 0)]));
      if (token.name === 'GS V') {
        this.slips.push(Buffer.from(this.#printing));
        this.#printing = [];
      }
    }
    return true;
  }

  #realTime(command: Buffer): void {
    if (command[1] !== 0x04) return;
    const n = command[2];
    if (n === 1) this.answer(Buffer.from([0x12 | (this.#online ? 0 : 0x08)]));
    if (n === 2) this.answer(Buffer.from([0x12 | (this.#coverOpen ? 0x04 : 0) | (this.#paper === 'out' ? 0x20 : 0)]));
    if (n === 4) this.answer(Buffer.from([0x12 | (this.#paper === 'near_end' ? 0x0c : 0) | (this.#paper === 'out' ? 0x60 : 0)]));
  }

  #statusChanged(): void {
    if (this.#autoStatus && !this.gone) {
      const first = 0x10 | (this.#online ? 0 : 0x08) | (this.#coverOpen ? 0x20 : 0);
      const third = (this.#paper === 'near_end' ? 0x03 : 0) | (this.#paper === 'out' ? 0x0c : 0);
      this.answer(Buffer.from([first, 0x00, third, 0x00]));
    }
    if (this.#online) this.#work();
  }

  #vanish(): void {
    this.gone = true;
    this.hangUp();
  }
}

function standIn(model: PrinterModel, settings: Record<string, unknown>, close: () => Promise<void>): StandInPrinter {
  return {
    settings,
    received: model.received,
    slips: model.slips,
    partial: model.partial,
    setPaper: (paper) => model.setPaper(paper),
    setCover: (open) => model.setCover(open),
    runOutOfPaperAfter: (bytes) => model.runOutOfPaperAfter(bytes),
    enableAutoStatus: () => model.enableAutoStatus(),
    vanishAfter: (bytes) => model.vanishAfter(bytes),
    slipsPrinted: (count) => model.slipsPrinted(count),
    receivedCommand: (command) => model.receivedCommand(command),
    close,
  };
}

/** A printer on TCP (a network printer's port 9100), on 127.0.0.1 at a free port. */
export async function standInPrinterOnTcp(): Promise<StandInPrinter> {
  const sockets = new Set<net.Socket>();
  let current: net.Socket | null = null;
  const model = new PrinterModel(
    (bytes) => void current?.write(bytes),
    () => {
      for (const socket of sockets) socket.destroy();
    },
  );
  const server = net.createServer((socket) => {
    if (model.gone) return void socket.destroy();
    sockets.add(socket);
    current = socket;
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => model.feed(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return standIn(model, { 'printer.kind': 'network', 'printer.host': '127.0.0.1', 'printer.port': port }, async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/** A printer on a serial line (RS-232 or USB-serial): the kiosk opens the pty's other end. */
export async function standInPrinterOnPty(kind: 'serial' | 'usb' = 'serial'): Promise<StandInPrinter> {
  const pty = await openPtyPair();
  const port = new SerialPort({ path: pty.writerPath, baudRate: 19_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  const model = new PrinterModel(
    (bytes) => void port.write(bytes),
    () => void pty.close(),
  );
  port.on('data', (chunk: Buffer) => model.feed(chunk));
  port.on('error', () => undefined);
  return standIn(model, { 'printer.kind': kind, 'printer.path': pty.scannerPath }, async () => {
    await new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve()));
    await pty.close();
  });
}
