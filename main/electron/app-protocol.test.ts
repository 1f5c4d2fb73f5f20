import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../security/content-security-policy.std.ts';

const PLATFORM = 'https://loyalty.example';
const PORTAL = 'https://portal.loyalty.example';
const CONTENT_SECURITY_POLICY = contentSecurityPolicy(PLATFORM, [PLATFORM, PORTAL]);
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol.main.ts';
import { FakeProtocol } from './fake-electron.test-support.ts';

// A built renderer in <tmp>/renderer, and a file beside it that must never be served.
const SECRET = 'fake-test-secret-outside-the-renderer';
let root: string;
const protocol = new FakeProtocol();

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'app-protocol-'));
  const rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>kiosk</title>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("kiosk");');
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);
  registerAppProtocol(protocol.electron, rendererDir, () => PLATFORM, () => [PLATFORM, PORTAL]);
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('app:// protocol', () => {
  it('is registered as a standard, secure scheme that can fetch and stream', () => {
    expect(APP_SCHEME_PRIVILEGES.scheme).toBe('app');
    expect(APP_SCHEME_PRIVILEGES.privileges).toMatchObject({ standard: true, secure: true, supportFetchAPI: true, stream: true });
  });

  it('serves index.html for / with the CSP, its content type and nosniff', async () => {
    const response = await protocol.fetch('app://kiosk/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>kiosk</title>');
    expect(response.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });

  it('lets frames show only the loyalty platform and its portal pages (the kiosk\'s frame origins)', async () => {
    const response = await protocol.fetch('app://kiosk/');
    expect(response.headers.get('Content-Security-Policy')).toContain(`frame-src ${PLATFORM} ${PORTAL};`);
  });

  it('serves a bundled script with the CSP', async () => {
    const response = await protocol.fetch('app://kiosk/assets/app.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each([
    'app://kiosk/../secret.txt',
    'app://kiosk/%2e%2e/secret.txt',
    'app://kiosk/..%2fsecret.txt',
    'app://kiosk/assets/..%2f..%2fsecret.txt',
    'app://kiosk/%2E%2E%5Csecret.txt',
    'app://kiosk/index.html%00.js',
  ])('refuses path traversal: %s', async (url) => {
    const response = await protocol.fetch(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('refuses an encoded absolute path', async () => {
    const response = await protocol.fetch(`app://kiosk/${encodeURIComponent(path.join(root, 'secret.txt'))}`);
    expect(response.status).toBe(404);
  });

  it.each(['app://evil/index.html', 'app://kiosk.evil.example/index.html', 'app://kiosk:8080/index.html'])(
    'serves nothing for another host: %s',
    async (url) => {
      expect((await protocol.fetch(url)).status).toBe(404);
    },
  );

  it('answers 404 for a missing file and for a folder', async () => {
    expect((await protocol.fetch('app://kiosk/missing.js')).status).toBe(404);
    expect((await protocol.fetch('app://kiosk/assets')).status).toBe(404);
  });
});
