import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../config/config-store.node.ts';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { contentSecurityPolicy } from './content-security-policy.std.ts';
import { FrameOrigins } from './frame-origins.node.ts';

const API = 'https://loyalty.example';
const PORTAL = 'https://portal.loyalty.example';

function frameOrigins(dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frame-origins-')), api: string | null = API) {
  const logger = recordingLogger();
  const config = new ConfigStore({ dataDir, logger });
  return { origins: new FrameOrigins({ dataDir, config, apiOrigin: () => api, logger }), config, logger, dataDir };
}

describe('FrameOrigins', () => {
  it('frames the API origin, and learns the portal origin the platform returns, for the next start too', () => {
    const { origins, dataDir } = frameOrigins();
    expect(origins.list()).toEqual([API]);
    expect(origins.admit(`${PORTAL}/portal-sessions?uuid=1`)).toBe(true);
    expect(origins.list()).toEqual([API, PORTAL]);
    expect(frameOrigins(dataDir).origins.list()).toEqual([API, PORTAL]);
    // Learned per platform: another platform starts from its own origin only.
    expect(frameOrigins(dataDir, 'https://other.example').origins.list()).toEqual(['https://other.example']);
  });

  it('frames and learns only https pages (http on this computer): javascript:, data: and plain http elsewhere are refused, never put in frame-src (#20 §8)', () => {
    const { origins, logger, dataDir } = frameOrigins();
    for (const url of ['javascript:alert(1)', 'data:text/html,<h1>x</h1>', 'http://portal.loyalty.example/p', 'file:///etc/passwd', 'blob:https://portal.loyalty.example/1', 'not a url']) {
      expect(origins.admit(url)).toBe(false);
    }
    expect(origins.list()).toEqual([API]);
    expect(origins.list()).not.toContain('null');
    expect(frameOrigins(dataDir).origins.list()).toEqual([API]);
    expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(6);
    // The sandbox on this computer serves plain http.
    expect(frameOrigins(undefined, 'http://127.0.0.1:4010').origins.admit('http://127.0.0.1:4011/portal')).toBe(true);
  });

  it('with portal.allowedOrigins set, frames those only and refuses (and logs) any other portal origin', () => {
    const { origins, config, logger } = frameOrigins();
    config.set('portal.allowedOrigins', [PORTAL]);
    expect(origins.list()).toEqual([API, PORTAL]);
    expect(origins.admit(`${PORTAL}/x`)).toBe(true);
    expect(origins.admit(`${API}/hosted`)).toBe(true);
    expect(origins.admit('https://evil.example/x')).toBe(false);
    expect(origins.list()).not.toContain('https://evil.example');
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'portal.page_refused', origin: 'https://evil.example' }) }));
  });

  it('takes only origins as allowedOrigins: https, or plain http on this computer', () => {
    const { config } = frameOrigins();
    expect(() => config.set('portal.allowedOrigins', ['https://portal.example/path'])).toThrow(/origin only/);
    expect(() => config.set('portal.allowedOrigins', ['http://portal.example'])).toThrow(/https/);
    expect(() => config.set('portal.allowedOrigins', ['http://127.0.0.1:4011'])).not.toThrow();
  });

  it('checks every origin read back from the file as it is learned: "null" and injected directives never reach the CSP (#28 §12)', () => {
    const { dataDir } = frameOrigins();
    const stored = { [API]: ['null', 'https://a.example; script-src *', `${PORTAL}/path`, 'http://portal.example', 'javascript:alert(1)', PORTAL, 'http://127.0.0.1:4011'] };
    fs.writeFileSync(path.join(dataDir, 'portal-origins.json'), JSON.stringify(stored));
    const { origins, logger } = frameOrigins(dataDir);
    expect(origins.list()).toEqual([API, PORTAL, 'http://127.0.0.1:4011']);
    expect(contentSecurityPolicy(API, origins.list())).toContain(`frame-src ${API} ${PORTAL} http://127.0.0.1:4011;`);
    expect(contentSecurityPolicy(API, origins.list())).not.toMatch(/null|script-src \*/);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { event: 'portal.origins_dropped', dropped: 5 } }));
  });

  it('learns afresh, with a log line, from a file too large to be what it keeps (#28 §12)', () => {
    const { dataDir } = frameOrigins();
    const file = path.join(dataDir, 'portal-origins.json');
    fs.writeFileSync(file, JSON.stringify({ [API]: [PORTAL], ...Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`https://api${index}.example`, [PORTAL]])) }));
    const { origins, logger } = frameOrigins(dataDir);
    expect(origins.list()).toEqual([API]);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { error: expect.stringMatching(/too large/) } }));
  });
});
