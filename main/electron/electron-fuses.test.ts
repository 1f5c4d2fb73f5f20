import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The `electronFuses:` block of electron-builder.yml as name → value (it is flat `name: bool` lines). */
function configuredFuses(): Record<string, boolean> {
  const lines = fs.readFileSync('electron-builder.yml', 'utf8').split('\n');
  const start = lines.indexOf('electronFuses:');
  expect(start).toBeGreaterThanOrEqual(0);
  const fuses: Record<string, boolean> = {};
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const fuse = /^\s+(\w+):\s*(true|false)\s*$/.exec(line);
    if (fuse) fuses[fuse[1]!] = fuse[2] === 'true';
  }
  return fuses;
}

describe('Electron fuses of the packaged kiosk', () => {
  it('flips every fuse that hands a local attacker or a page more power', () => {
    expect(configuredFuses()).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('lets the test build open only the inspector, nothing else', () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const overrides = [...scripts['package:test']!.matchAll(/-c\.electronFuses\.(\w+)=(\w+)/g)].map(([, name, value]) => `${name}=${value}`);
    expect(overrides).toEqual(['enableNodeCliInspectArguments=true']);
  });
});
