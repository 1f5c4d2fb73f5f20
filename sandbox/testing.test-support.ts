import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorBody, type AuthScheme } from '../api/operations.std.ts';
import { routedOperations, type RoutedOperationId } from './routes.std.ts';
import { startSandbox, type RunningSandbox } from './sandbox.node.ts';
import type { SandboxState } from './state.std.ts';

/**
 * Test support: a sandbox on a free port with a fresh temp folder, and a client that checks
 * every answer against the wire schemas (success: the operation's `response`; failure: the
 * platform's ErrorBody with a matching status_code), so no test can pass on a malformed answer.
 */
export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Which credential to send; the operation's first accepted kind unless given, null for none. */
  as?: AuthScheme | null;
  /** A literal Bearer value, overriding `as`. */
  bearer?: string;
}

export interface Reply<Body = unknown> {
  status: number;
  body: Body;
  headers: Headers;
}

export type ErrorReply = z.output<typeof ErrorBody>;

export class TestSandbox {
  private constructor(
    readonly dataDir: string,
    private running: RunningSandbox,
  ) {}

  static async start(dataDir?: string): Promise<TestSandbox> {
    const dir = dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'loyalty-sandbox-')));
    return new TestSandbox(dir, await startSandbox({ port: 0, dataDir: dir }));
  }

  get baseUrl() {
    return this.running.baseUrl;
  }

  get manifest() {
    return this.running.manifest;
  }

  get manifestPath() {
    return this.running.manifestPath;
  }

  get credentials() {
    return this.running.manifest.credentials;
  }

  /** The uuid of a demo contact, by the first name in its e-mail address (`sanne`). */
  contactUuid(firstName: string): string {
    const contact = this.manifest.contacts.find((candidate) => candidate.email.startsWith(`${firstName}.`));
    if (!contact) throw new Error(`No demo contact ${firstName}`);
    return contact.uuid;
  }

  get shopUuid(): string {
    return this.manifest.shops[0]?.uuid ?? '';
  }

  /** The uuid of a seeded voucher, by its (fixed) demo code. */
  voucherUuid(code: string): string {
    const voucher = this.manifest.vouchers.find((candidate) => candidate.code === code);
    if (!voucher) throw new Error(`No seeded voucher ${code}`);
    return voucher.uuid;
  }

  /** The state as stored in `state.json`: every acknowledged change is on disk. */
  async storedState(): Promise<SandboxState> {
    return JSON.parse(await fs.readFile(path.join(this.dataDir, 'state.json'), 'utf8')) as SandboxState;
  }

  /** Closes and starts again on the same folder (a new port). */
  async restart(): Promise<void> {
    await this.running.close();
    this.running = await startSandbox({ port: 0, dataDir: this.dataDir });
  }

  async stop({ keepData = false } = {}): Promise<void> {
    await this.running.close();
    if (!keepData) await fs.rm(this.dataDir, { recursive: true, force: true });
  }

  /** Calls an operation; the answer has passed its schema, so `body` is the parsed success. */
  async call<Id extends RoutedOperationId>(id: Id, options: CallOptions = {}): Promise<Reply<any>> {
    const operation = routedOperations[id];
    const filledPath = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      encodeURIComponent(options.params?.[name] ?? `missing-${name}`),
    );
    const query = new URLSearchParams(
      Object.entries(options.query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const scheme = options.as === undefined ? operation.auth[0] : options.as;
    const bearer = options.bearer ?? (scheme ? this.credentials[scheme] : undefined);
    const reply = await this.fetch(operation.method, `${filledPath}${query ? `?${query}` : ''}`, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      // fetch cannot send a GET body; the sandbox would ignore it anyway.
      body: options.body === undefined || operation.method === 'GET' ? undefined : JSON.stringify(options.body),
    });
    if (reply.status < 300) {
      const checked = operation.response.safeParse(reply.body);
      if (!checked.success) {
        throw new Error(`${id} answered outside its schema: ${checked.error.message}\n${JSON.stringify(reply.body)}`);
      }
    }
    return reply;
  }

  /** Any request below base_url; the body of an error answer is checked against ErrorBody. */
  async fetch(
    method: string,
    pathAndQuery: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply<any>> {
    const response = await fetch(`${this.baseUrl}${pathAndQuery}`, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...init.headers },
      body: init.body,
    });
    const text = await response.text();
    const body: unknown = JSON.parse(text);
    if (response.status >= 300) assertErrorBody(response.status, body);
    return { status: response.status, body, headers: response.headers };
  }
}

/** A refusal with this status and platform code (and, for validation, an error for `field`). */
export function expectError(reply: Reply<any>, status: number, code: number, field?: string): void {
  expect({ status: reply.status, code: reply.body.code }).toEqual({ status, code });
  if (field) expect(reply.body.errors?.[field]?.length, `errors.${field}`).toBeGreaterThan(0);
}

export function assertErrorBody(status: number, body: unknown): asserts body is ErrorReply {
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success || parsed.data.status_code !== status) {
    throw new Error(`Error answer ${status} is not a platform error body: ${JSON.stringify(body)}`);
  }
}
