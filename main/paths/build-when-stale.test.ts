import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIsCurrent, newestSourceMs } from './build-when-stale.node.ts';

/** A project folder with one source file, last changed at `sourceMs`. */
function project(sourceMs: number): { root: string; source: string; stamp: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-build-'));
  const source = path.join(root, 'renderer', 'screens', 'Home.svelte');
  fs.mkdirSync(path.dirname(source), { recursive: true });
  fs.writeFileSync(source, '<p>home</p>');
  fs.utimesSync(source, sourceMs / 1000, sourceMs / 1000);
  return { root, source, stamp: path.join(root, 'built-from') };
}

describe('a build made only when a source is newer than it', () => {
  it('is current when no source changed since the sources it was made from', () => {
    const { root, stamp } = project(1_700_000_000_000);
    fs.writeFileSync(stamp, `${newestSourceMs(root)}\n`);
    expect(buildIsCurrent(root, stamp)).toBe(true);
  });

  it('is stale when any source, however deep, changed after it, and before the first build', () => {
    const { root, source, stamp } = project(1_700_000_000_000);
    expect(buildIsCurrent(root, stamp)).toBe(false);
    fs.writeFileSync(stamp, `${newestSourceMs(root)}\n`);
    fs.utimesSync(source, 1_700_000_001, 1_700_000_001);
    expect(buildIsCurrent(root, stamp)).toBe(false);
  });

  it('counts what the build is made from only, not the tests or the output', () => {
    const { root, stamp } = project(1_700_000_000_000);
    fs.writeFileSync(stamp, `${newestSourceMs(root)}\n`);
    for (const other of ['test/e2e/new.e2e.test.ts', 'main/vouchers/new.test.ts', 'dist/renderer/index.html', 'docs/new.md']) {
      fs.mkdirSync(path.join(root, path.dirname(other)), { recursive: true });
      fs.writeFileSync(path.join(root, other), 'later');
    }
    expect(buildIsCurrent(root, stamp)).toBe(true);
  });

  it('is stale when the stamp holds no time', () => {
    const { root, stamp } = project(1_700_000_000_000);
    fs.writeFileSync(stamp, 'garbage');
    expect(buildIsCurrent(root, stamp)).toBe(false);
  });
});
