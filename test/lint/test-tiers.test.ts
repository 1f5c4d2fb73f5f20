import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTEGRATION } from '../../vitest.config.ts';

/*
 * `npm run test:unit` needs no build and no keyring: a test that imports the keychain, Mosquitto,
 * a built CLI, Chromium, a pty, espeak-ng or a kiosk process, or runs a child by its path, belongs
 * in vitest.config.ts's INTEGRATION list.
 */
const NEEDS_MORE = /(^|\/)(keytar|(mosquitto|built-cli|chromium|browser-host-process|browser-host-in-process|pty|espeak-recorder|kiosk-journey|fault-proxy|redemption-faults|manager-console|layout-journey|unit-supervisor|processes|kiosk-services|secret-store)\.node\.ts)$/;
const RUNS_A_CHILD = /-child\.node\.ts|\bdist\/(?:main|cli)\b/g;
const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm;

const FOLDERS = ['api', 'base', 'common', 'main', 'preload', 'sandbox', 'test'];

function unitTests(): string[] {
  return FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/e2e/'))
      .filter((file) => !INTEGRATION.some((entry) => file.startsWith(entry))),
  );
}

/** What in `source` only the integration project may use. */
export function integrationNeeds(source: string): string[] {
  const imports = [...source.matchAll(IMPORT)].map((match) => match[1]!).filter((specifier) => NEEDS_MORE.test(specifier));
  return [...imports, ...(source.match(RUNS_A_CHILD) ?? [])];
}

describe('the unit tier', () => {
  it('spots what needs the integration project', () => {
    expect(integrationNeeds("import { startMosquitto } from '../../test/support/mosquitto.node.ts';")).toEqual(['../../test/support/mosquitto.node.ts']);
    expect(integrationNeeds("import keytar from 'keytar';\nconst child = 'test/support/watchdog-child.node.ts';")).toEqual(['keytar', '-child.node.ts']);
    expect(integrationNeeds("import { until } from '../../test/support/until.std.ts';\nlint(\"import { s } from '../kiosk-services.node.ts'\");")).toEqual([]);
  });

  it('has no test that needs the keychain, a build, a broker, a browser or a child process', () => {
    // This file names what it looks for.
    const files = unitTests().filter((file) => file !== 'test/lint/test-tiers.test.ts');
    expect(files.length).toBeGreaterThan(50);
    const misplaced = files.flatMap((file) => integrationNeeds(fs.readFileSync(file, 'utf8')).map((need) => `${file}: ${need}`));
    expect(misplaced).toEqual([]);
  });
});
