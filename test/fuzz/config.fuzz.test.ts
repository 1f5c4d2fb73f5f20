import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONFIG_KEYS } from '../../main/config/config-keys.std.ts';
import { salvageSettings } from '../../main/config/config-recovery.std.ts';
import { ConfigError, ConfigStore } from '../../main/config/config-store.node.ts';
import { runKioskctl } from '../../main/kioskctl/commands.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { CONFIG_SCHEMA_VERSION, defaultConfig, KIOSK_MODES, KioskConfig, LOCALES } from '../../common/config-schema.std.ts';
import { readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { recordFuzzInputs } from './fuzz-budget.node.ts';
import { DATA_FILES, dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * config.json as a damaged disk, a careless admin or a newer kiosk may leave it, opened by the real
 * ConfigStore (read-only, then as the kiosk opens it) and by kioskctl's read-only commands. Every
 * open answers; every key that is valid on its own survives (the PIN hash and api.* above all);
 * looking never changes the folder; a file that is no JSON is kept aside byte for byte.
 */

const RUNS = [
  { name: 'arbitrary JSON documents', seed: 1_212_001, inputs: 2_000 },
  { name: 'arbitrary values at real keys', seed: 1_212_002, inputs: 4_000 },
  { name: 'valid files cut short', seed: 1_212_003, inputs: 2_500 },
  { name: 'kioskctl config show and get', seed: 1_212_004, inputs: 1_500 },
] as const;

/**
 * A run's bound: about 7 ms an input on an idle machine (two opens of a folder written afresh), so
 * 40 ms an input leaves a CI machine busy with browsers its margin; the default 60 s did not (52 s seen).
 */
const boundOf = (run: (typeof RUNS)[number]) => run.inputs * 40;

const PIN_HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

/** A connected kiosk's settings: what one bad value elsewhere must never take with it. */
const baseFile = (): Record<string, unknown> => ({
  schemaVersion: 2,
  api: { baseUrl: 'https://loyalty.example.com/api', shopUuid: '7d5b3f0e-3c1a-4f8e-9a57-0c2d7b1e4a10' },
  kiosk: { modes: ['vouchers'] },
  manager: { pinHash: PIN_HASH },
});

/** Values each key takes, so valid ones come up often; anything else comes from fc.jsonValue. */
const VALID_EXTRAS: Record<string, unknown[]> = {
  'api.baseUrl': [null, 'https://loyalty.example.com/api', 'http://127.0.0.1:8080/api', 'http://localhost/api'],
  'api.shopUuid': [null, '0b7d4c7e-8a55-4a8e-bf2b-5b6c1d2e3f40'],
  'kiosk.modes': [...KIOSK_MODES.map((mode) => [mode]), ['regular', 'credit-reception', 'pay-prepaid'], ['pay-prepaid', 'vouchers']],
  'scanner.connection': ['keyboard', 'serial'],
  'scanner.serial.path': [null, '/dev/ttyACM0', 'COM3'],
  'scanner.serial.baudRate': [300, 9600, 115_200, 921_600],
  'scanner.serial.parity': ['none', 'even', 'odd'],
  'scanner.serial.terminator': ['CR', 'LF', 'CRLF', 'idle'],
  'scanner.serial.usb': [null, { vendorId: '05e0', productId: '1200' }, { vendorId: 'ABCD', productId: '0001', serialNumber: 'S1' }],
  'idle.timeoutSeconds': [10, 60, 3600],
  'locale.default': [...LOCALES],
  'locale.enabled': [['en'], ['en', 'nl'], ['de', 'fr'], [...LOCALES]],
  'brand.name': ['Bakkerij Jansen', 'x'],
  'brand.color': ['#000000', '#1f5fbf'],
  'manager.pinHash': [null, PIN_HASH],
};
const validValue = (key: string) => {
  const fallback = readDotted(defaultConfig(), key);
  const extras = VALID_EXTRAS[key] ?? (typeof fallback === 'boolean' ? [true, false] : []);
  return fc.constantFrom(fallback, ...extras);
};
const anyValue = (key: string) => fc.oneof({ weight: 2, arbitrary: validValue(key) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** `tree` with `value` at the dotted key, making (or replacing) the branches on the way. */
function setDotted(tree: Record<string, unknown>, key: string, value: unknown) {
  const names = key.split('.');
  const last = names.pop()!;
  let node = tree;
  for (const name of names) {
    const next = node[name];
    node = node[name] = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  node[last] = value;
}

/** Real keys, their branches and schemaVersion, each set to anything, over a connected kiosk's file. */
const editedFile = fc
  .array(
    fc.constantFrom(...CONFIG_KEYS, 'api', 'scanner.serial', 'locale', 'manager', 'schemaVersion', 'kiosk.extra').chain((key) =>
      (CONFIG_KEYS.includes(key) ? anyValue(key) : fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: -2, max: 3 }))).map((value) => [key, value] as const),
    ),
    { maxLength: 8 },
  )
  .map((edits) => {
    const file = baseFile();
    for (const [key, value] of edits) setDotted(file, key, value);
    return JSON.stringify(file);
  });

/** A file of valid values only, as the kiosk writes it. */
const validFile = fc
  .array(fc.constantFrom(...CONFIG_KEYS).chain((key) => validValue(key).map((value) => [key, value] as const)), { maxLength: 10 })
  .map((edits) => {
    const file = baseFile();
    for (const [key, value] of edits) setDotted(file, key, value);
    return file;
  })
  .filter((file) => KioskConfig.safeParse(file).success)
  .map((file) => JSON.stringify(file, null, '\t'));

const cutShort = validFile.chain((text) => fc.nat({ max: text.length - 1 }).map((at) => text.slice(0, at)));

const arbitraryDocument = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.dictionary(fc.constantFrom('api', 'kiosk', 'manager', 'scanner', 'locale', 'schemaVersion', 'x'), fc.jsonValue({ maxDepth: 3 })).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 40 }),
);

/** What a key's value must be after an open: its own value where that is valid on its own. */
function survivors(raw: unknown): Map<string, unknown> {
  const kept = new Map<string, unknown>();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return kept;
  for (const key of CONFIG_KEYS) {
    const value = readDotted(raw, key);
    if (value === undefined) continue;
    const alone = KioskConfig.safeParse(withDotted(defaultConfig(), { [key]: value }));
    if (alone.success) kept.set(key, readDotted(alone.data, key));
  }
  // The default language must be enabled: a pair that does not fit may lose either of its two.
  const locale = KioskConfig.shape.locale.safeParse({ default: readDotted(raw, 'locale.default'), enabled: readDotted(raw, 'locale.enabled') });
  if (!locale.success) {
    kept.delete('locale.default');
    kept.delete('locale.enabled');
  }
  return kept;
}

const parsedOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const isTree = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNewer = (raw: unknown) => isTree(raw) && typeof raw.schemaVersion === 'number' && raw.schemaVersion > CONFIG_SCHEMA_VERSION;

// Each run takes a few seconds alone; CI runs them beside other suites on two cores.
describe('config fuzz', { timeout: 60_000 }, () => {
  let dir: string;
  const file = () => dataFiles(dir).config;
  /** The folder as it is, but the logs kioskctl keeps. */
  const folder = () =>
    fs
      .readdirSync(dir)
      .filter((name) => name !== DATA_FILES.logs)
      .sort()
      .map((name): [string, string] => [name, fs.readFileSync(path.join(dir, name), 'utf8')]);
  const fresh = (text: string) => {
    for (const name of fs.readdirSync(dir)) if (name !== DATA_FILES.logs) fs.rmSync(path.join(dir, name), { force: true });
    fs.writeFileSync(file(), text);
  };

  beforeAll(() => {
    // tmpfs where there is one: fsync is free there, and the suite stays fast.
    const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
    dir = fs.mkdtempSync(path.join(base, 'kiosk-config-fuzz-'));
    vi.stubEnv('KIOSK_PROVISIONING_FILE', path.join(dir, 'no-provisioning-file.json'));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One input through a read-only open, then the kiosk's own open: the invariants of both. */
  function openBoth(text: string) {
    fresh(text);
    const raw = parsedOrNull(text);
    // A file that is no JSON keeps what is still legible in it (a cut-short file's PIN hash and address).
    const legible = isTree(raw) ? raw : salvageSettings(text);
    const expected = survivors(legible);
    const before = folder();

    const looking = new ConfigStore({ dataDir: dir, logger: silentLogger, readOnly: true });
    expect(folder()).toEqual(before);
    for (const [key, value] of expected) expect(looking.getKey(key), key).toEqual(value);
    expect(() => looking.set('kiosk.modes', ['regular'])).toThrow(ConfigError);

    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    const config = store.get();
    expect(KioskConfig.safeParse(config).success).toBe(true);
    for (const [key, value] of expected) expect(store.getKey(key), key).toEqual(value);
    if (isNewer(raw)) {
      // A newer kiosk's file: untouched, and writes refused.
      expect(folder()).toEqual(before);
      expect(() => store.set('kiosk.modes', ['regular'])).toThrow(ConfigError);
      return;
    }
    if (!isTree(raw)) {
      // No JSON: a copy kept aside, byte for byte; what was not legible in it holds its default.
      const copies = folder().filter(([name]) => name.startsWith('config.json.corrupt-'));
      expect(copies.map(([, content]) => content)).toEqual([text]);
      for (const key of CONFIG_KEYS.filter((name) => readDotted(legible, name) === undefined)) {
        expect(store.getKey(key), key).toEqual(readDotted(defaultConfig(), key));
      }
    }
    // The store answers normally after.
    store.set('kiosk.modes', ['regular']);
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger, readOnly: true }).get()).toEqual({ ...config, kiosk: { modes: ['regular'] } });
  }

  function check(run: (typeof RUNS)[number], arbitrary: fc.Arbitrary<string>, property: (text: string) => void | Promise<void>) {
    let ran = 0;
    const counted = (text: string) => {
      ran += 1;
      return property(text);
    };
    return fc
      .assert(fc.asyncProperty(arbitrary, async (text) => counted(text)), { seed: run.seed, numRuns: run.inputs })
      .catch((error: unknown) => {
        throw new Error(`config fuzz "${run.name}" failed (seed ${run.seed}): ${String(error)}`);
      })
      .finally(() => recordFuzzInputs('config', run.seed, ran));
  }

  it(`opens ${RUNS[0].inputs} arbitrary JSON documents (and text that is none)`, () => check(RUNS[0], arbitraryDocument, openBoth), boundOf(RUNS[0]));

  it(`keeps every valid key among ${RUNS[1].inputs} files with arbitrary values at real keys`, () => check(RUNS[1], editedFile, openBoth), boundOf(RUNS[1]));

  it(`keeps a copy of each of ${RUNS[2].inputs} valid files cut short`, () => check(RUNS[2], cutShort, openBoth), boundOf(RUNS[2]));

  it(`kioskctl config show and get on ${RUNS[3].inputs} files: exit 0, the folder unchanged, the PIN hash never printed`, () =>
    check(RUNS[3], fc.oneof(editedFile, cutShort, arbitraryDocument), async (text) => {
      fresh(text);
      const before = folder();
      const expected = survivors(parsedOrNull(text));
      let output = '';
      const run = (args: string[]) =>
        runKioskctl({
          dataDir: dir,
          args,
          keychainService: 'loyalty-kiosk-config-fuzz-unused',
          stdin: { isTTY: false, read: async () => '' },
          stdout: (written) => (output += written),
          stderr: (written) => (output += written),
        });
      await expect(run(['config', 'show'])).resolves.toBe(0);
      const shown = JSON.parse(output) as KioskConfig;
      for (const [key, value] of expected) {
        expect(readDotted(shown, key), key).toEqual(key === 'manager.pinHash' ? (value === null ? 'not set' : 'set') : value);
      }
      output = '';
      await expect(run(['config', 'get', 'manager.pinHash'])).resolves.toBe(0);
      expect(output).toMatch(/^"(not )?set"\n$/);
      expect(folder()).toEqual(before);
    }));
});
