import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli } from '../../test/support/built-cli.node.ts';
import { buildOutput } from '../paths/build-output.node.ts';

/** Every bundle file `entry` loads before it runs: its static imports, and theirs (dynamic ones wait for their use). */
function loadedAtStart(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = fs.readFileSync(entry, 'utf8');
  for (const match of code.matchAll(/^\s*(?:import|export)\b[^;()]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"/gm)) {
    const specifier = (match[1] ?? match[2])!;
    if (specifier.startsWith('.')) loadedAtStart(path.resolve(path.dirname(entry), specifier), seen);
    else seen.add(specifier);
  }
  return seen;
}

describe('mqtt.js (#32)', () => {
  it.each([
    ['the Electron app', path.join(buildOutput.root, 'dist', 'main', 'electron.main.js')],
    ['the browser host', builtCli('browser-host')],
    ['kioskctl', builtCli('kioskctl')],
  ])('is not loaded when %s starts: only a fleet broker to talk to loads it', (_name, entry) => {
    const loaded = loadedAtStart(entry);
    expect(loaded.size).toBeGreaterThan(3);
    expect([...loaded]).not.toContain('mqtt');
    // It is there, for a kiosk that has a fleet: one dynamic import away.
    expect([...loaded].some((file) => file.startsWith('/') && /import\("mqtt"\)|import\("\.\/(assets\/)?fleet-client/.test(fs.readFileSync(file, 'utf8')))).toBe(true);
  });
});
