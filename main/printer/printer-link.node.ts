import fs from 'node:fs';
import net from 'node:net';
import { SerialPort } from 'serialport';
import type { PrinterConfig } from '../../common/config-schema.std.ts';

/** A byte pipe to a printer, whichever way it is connected; opened for one job and closed after it. */
export interface PrinterLink {
  write(data: Uint8Array): Promise<void>;
  /** Every chunk the printer sends back; `onGone` once the link breaks or closes. */
  onData(listener: (chunk: Buffer) => void): void;
  onGone(listener: (why: string) => void): void;
  close(): Promise<void>;
}

/** A printer that is not there answers a connection within this. */
const OPEN_TIMEOUT_MS = 3_000;

/** The link `config` names; rejects with a readable reason when the printer cannot be reached. */
export function openPrinterLink(config: PrinterConfig): Promise<PrinterLink> {
  switch (config.kind) {
    case 'serial':
      return openSerial(required(config.path, 'printer.path'), config.baudRate);
    case 'usb':
      return openDevice(required(config.path, 'printer.path'));
    case 'network':
      return openSocket(required(config.host, 'printer.host'), config.port);
    default:
      return Promise.reject(new Error(`printer.kind ${config.kind} has no link`));
  }
}

function required(value: string | null, key: string): string {
  if (!value) throw new Error(`${key} is not set`);
  return value;
}

async function openSerial(path: string, baudRate: number): Promise<PrinterLink> {
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  return {
    write: (data) => new Promise((resolve, reject) => port.write(data, (error) => (error ? reject(error) : port.drain(() => resolve())))),
    onData: (listener) => port.on('data', listener),
    onGone: (listener) => {
      port.on('close', () => listener('the serial port closed'));
      port.on('error', (error) => listener(error.message));
    },
    close: () => new Promise((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  };
}

function openSocket(host: string, port: number): Promise<PrinterLink> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, timeout: OPEN_TIMEOUT_MS });
    const refuse = (error: Error) => reject(error);
    socket.once('error', refuse);
    socket.once('timeout', () => socket.destroy(new Error(`no answer from ${host}:${port}`)));
    socket.once('connect', () => {
      socket.off('error', refuse);
      socket.setTimeout(0);
      resolve({
        write: (data) => new Promise((done, fail) => socket.write(data, (error) => (error ? fail(error) : done()))),
        onData: (listener) => socket.on('data', listener),
        onGone: (listener) => {
          socket.on('close', () => listener('the printer closed the connection'));
          socket.on('error', (error) => listener(error.message));
        },
        close: () => new Promise((done) => (socket.destroyed ? done() : socket.end(() => (socket.destroy(), done())))),
      });
    });
  });
}

/** How often a USB printer-class device is read while an answer is awaited (its reads never block). */
const DEVICE_POLL_MS = 20;

/**
 * A USB printer-class device (`/dev/usb/lp0`): opened non-blocking, so a read with nothing to
 * read returns at once instead of holding one of Node's few file threads.
 */
async function openDevice(path: string): Promise<PrinterLink> {
  const fd = await new Promise<number>((resolve, reject) =>
    fs.open(path, fs.constants.O_RDWR | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  // A printer is a device: a path that names a file (a settings file, a log) is never written to.
  if (!fs.fstatSync(fd).isCharacterDevice()) {
    fs.closeSync(fd);
    throw new Error(`${path} is no device`);
  }
  const dataListeners: Array<(chunk: Buffer) => void> = [];
  const goneListeners: Array<(why: string) => void> = [];
  let closed = false;
  const gone = (why: string) => {
    if (closed) return;
    closed = true;
    clearInterval(poll);
    fs.close(fd, () => undefined);
    for (const listener of goneListeners) listener(why);
  };
  const buffer = Buffer.alloc(256);
  const poll = setInterval(() => {
    fs.read(fd, buffer, 0, buffer.length, null, (error, read) => {
      if (error && error.code !== 'EAGAIN') return gone(error.message);
      if (!error && read > 0) for (const listener of dataListeners) listener(Buffer.from(buffer.subarray(0, read)));
    });
  }, DEVICE_POLL_MS);
  return {
    write: (data) => writeAll(fd, data),
    onData: (listener) => void dataListeners.push(listener),
    onGone: (listener) => void goneListeners.push(listener),
    close: async () => gone('closed'),
  };
}

/** Writes all of `data` to a non-blocking descriptor, waiting a moment whenever the device is full. */
async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  let at = 0;
  while (at < data.length) {
    at += await new Promise<number>((resolve, reject) =>
      fs.write(fd, data, at, data.length - at, null, (error, written) => {
        if (error?.code === 'EAGAIN') setTimeout(() => resolve(0), DEVICE_POLL_MS);
        else if (error) reject(error);
        else resolve(written);
      }),
    );
  }
}
