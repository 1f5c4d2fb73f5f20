import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../sandbox/sandbox.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { verifyPin } from '../manager/pin-hash.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../secrets/secret-store.node.ts';
import { runKioskctl } from './commands.node.ts';
import { formatTable } from './table.std.ts';
import { makeFolderReadOnly } from '../../test/support/read-only-folder.node.ts';
import { startMosquitto } from '../../test/support/mosquitto.node.ts';
import { builtCli } from '../../test/support/built-cli.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { LEDGER_COLUMNS } from '../ledger/ledger-events.std.ts';
import { lockDataDir } from '../paths/data-dir-lock.node.ts';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import { closeShiftByHand, ShiftBusy } from '../ledger/close-shift.node.ts';
import { openSetupCard } from '../manager/setup-card.node.ts';
import { ControlRefusal, startControlServer } from '../control/control-server.node.ts';
import { standInPrinterOnTcp } from '../../test/support/standin-printer.node.ts';

// Runs against the real Secret Service started by test/with-keyring.sh, under this file's own
// service name, so a real kiosk's secrets are never touched.
const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
const keychain = new KeytarSecretStore({ logger: silentLogger, service: keychainService });

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioskctl-'));
  tempDirs.push(dir);
  return dir;
};

afterEach(async () => {
  for (const name of SECRET_NAMES) await keychain.remove(name);
});
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real command, the way an installer script runs it: its own process, `stdin` piped in, and no
 * provisioning file unless a test names one (a machine's own /etc file must not leak in).
 */
function kioskctl(dataDir: string, args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [builtCli('kioskctl'), '--data', dataDir, ...args],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          KIOSK_KEYCHAIN_SERVICE: keychainService,
          KIOSK_PROVISIONING_FILE: path.join(dataDir, 'no-provisioning-file.json'),
          ...options.env,
        },
      },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

const writeJson = (file: string, value: unknown) => {
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};

const configFile = (dir: string) => dataFiles(dir).config;

/** Every file under `dir` whose bytes contain `text`. */
function filesContaining(dir: string, text: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => fs.statSync(file).isFile() && fs.readFileSync(file).includes(text));
}

/** Doctor's table as check name → [status, detail]. */
function doctorRows(stdout: string): Record<string, [string, string]> {
  const rows = stdout.trim().split('\n').slice(1);
  return Object.fromEntries(rows.map((row) => row.split(/\s{2,}/)).map(([name = '', status = '', ...detail]) => [name, [status, detail.join('  ')]]));
}

const noStack = /\n\s+at /;

describe('kioskctl config', () => {
  it('checks a provisioning file before it is deployed: every problem by key and exit 1, or what a valid one locks (#35 §4)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ schedule: { nightlyRestart: '4:30' }, idle: { timeoutSecs: 90 }, fleet: { kioskId: 'store-7' } }));
    const invalid = await kioskctl(dir, ['provision', 'check', file]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout.trim().split('\n')).toEqual([
      `${file}: idle.timeoutSecs: unknown setting`,
      expect.stringMatching(new RegExp(`^${file}: schedule\\.nightlyRestart: `)),
      `${file}: invalid (2 problems): a kiosk shows "setup needed" and serves no shopper; only its fleet section applies, so the kiosk joins its broker and reports the problem there`,
    ]);
    fs.writeFileSync(file, JSON.stringify({ schedule: { nightlyRestart: '04:30' }, idle: { timeoutSeconds: 90 } }));
    const valid = await kioskctl(dir, ['provision', 'check', file]);
    expect(valid).toMatchObject({ code: 0, stdout: `${file}: valid; it sets and locks idle.timeoutSeconds, schedule.nightlyRestart\n` });
    expect((await kioskctl(dir, ['provision', 'check', path.join(dir, 'none.json')])).code).toBe(2);
  });

  it('shows every setting with its default on a fresh data folder', async () => {
    const shown = await kioskctl(tempDir(), ['config', 'show']);
    expect(shown.code).toBe(0);
    const config = JSON.parse(shown.stdout);
    expect(config.kiosk.modes).toEqual(['regular']);
    expect(config.session.scanner_type).toBe('camera');
    expect(config.idle.timeoutSeconds).toBe(60);
  });

  it('sets a value typed from text and reads it back', async () => {
    const dir = tempDir();
    const set = await kioskctl(dir, ['config', 'set', 'scanner.serial.baudRate', '115200']);
    expect(set).toMatchObject({ code: 0, stdout: 'scanner.serial.baudRate = 115200\n' });
    expect((await kioskctl(dir, ['config', 'get', 'scanner.serial.baudRate'])).stdout).toBe('115200\n');
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).scanner.serial.baudRate).toBe(115200);
  });

  it('sets the kiosk\'s modes from a comma list, in the order typed', async () => {
    const dir = tempDir();
    const set = await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'credit-reception,pay-prepaid']);
    expect(set).toMatchObject({ code: 0, stdout: 'kiosk.modes = ["credit-reception","pay-prepaid"]\n' });
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).kiosk.modes).toEqual(['credit-reception', 'pay-prepaid']);
    const twice = await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'vouchers,vouchers']);
    expect(twice).toMatchObject({ code: 2, stderr: expect.stringMatching(/kiosk\.modes.*each mode at most once/) });
  });

  it('refuses an invalid value with exit code 2 and writes nothing', async () => {
    const dir = tempDir();
    await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'vouchers']);
    const before = fs.readFileSync(configFile(dir), 'utf8');
    const refused = await kioskctl(dir, ['config', 'set', 'session.camera_service', '7']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/session\.camera_service/);
    expect(refused.stderr).not.toMatch(noStack);
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);
  });

  it('refuses a brand colour white text cannot be read on, and writes nothing (#34 §5)', async () => {
    const dir = tempDir();
    await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'vouchers']);
    const before = fs.readFileSync(configFile(dir), 'utf8');
    const refused = await kioskctl(dir, ['config', 'set', 'brand.color', '#ffd400']);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/brand\.color.*contrast 1\.\d:1 with white.*choose a darker colour/) });
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);
    expect(await kioskctl(dir, ['config', 'set', 'brand.color', '#7a3e00'])).toMatchObject({ code: 0 });
  });

  it('takes the API address only over https, or plain http to this computer', async () => {
    const dir = tempDir();
    await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'vouchers']);
    const before = fs.readFileSync(configFile(dir), 'utf8');
    const refused = await kioskctl(dir, ['config', 'set', 'api.baseUrl', 'http://loyalty.example.com/api']);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/api\.baseUrl.*use https/) });
    expect(refused.stderr).not.toMatch(noStack);
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);

    for (const url of ['https://loyalty.example.com/api', 'http://127.0.0.1:8080/api', 'http://localhost:8080/api']) {
      expect(await kioskctl(dir, ['config', 'set', 'api.baseUrl', url])).toMatchObject({ code: 0, stdout: `api.baseUrl = "${url}"\n` });
      expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).api.baseUrl).toBe(url);
    }
  });

  it('refuses unknown keys, unknown commands and missing arguments with exit code 2, and explains itself', async () => {
    const dir = tempDir();
    const [unknownKey, unknownVerb, missing, bogus, help, pinHash] = await Promise.all([
      kioskctl(dir, ['config', 'set', 'no.such.key', '1']),
      kioskctl(dir, ['config', 'frobnicate']),
      kioskctl(dir, ['config', 'set', 'kiosk.modes']),
      kioskctl(dir, ['--bogus']),
      kioskctl(dir, ['--help']),
      kioskctl(dir, ['config', 'set', 'manager.pinHash', 'not-a-hash']),
    ]);
    expect(pinHash).toMatchObject({ code: 2, stderr: expect.stringMatching(/pin set/) });
    expect(unknownKey).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown setting "no.such.key"/) });
    expect(unknownVerb.code).toBe(2);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/<key> <value>/) });
    expect(bogus.code).toBe(2);
    expect(help.code).toBe(0);
    for (const command of ['config import <file>', 'secrets set <name>', 'secrets status', 'secrets remove <name>', 'pin set', 'doctor']) {
      expect(help.stdout).toContain(command);
    }
  });

  it('lists the settable keys, the same names the issues use', async () => {
    const keys = (await kioskctl(tempDir(), ['config', 'keys'])).stdout.trim().split('\n');
    expect(keys).toEqual(expect.arrayContaining(['api.baseUrl', 'session.primary_identification_method', 'scanner.serial.terminator', 'manager.pinHash']));
  });

  it('imports a settings file as a whole: one bad key, value or the PIN and nothing is written', async () => {
    const dir = tempDir();
    const shopUuid = crypto.randomUUID();
    const goodFile = writeJson(path.join(dir, 'good.json'), {
      schemaVersion: 1,
      api: { shopUuid },
      idle: { timeoutSeconds: 120 },
      locale: { default: 'nl', enabled: ['nl', 'de'] },
    });
    expect(await kioskctl(dir, ['config', 'import', goodFile])).toMatchObject({ code: 0, stdout: expect.stringMatching(/imported 4 settings/) });
    const before = fs.readFileSync(configFile(dir), 'utf8');
    expect(JSON.parse(before)).toMatchObject({ api: { shopUuid }, idle: { timeoutSeconds: 120 }, locale: { default: 'nl', enabled: ['nl', 'de'] } });

    const brokenFile = path.join(dir, 'broken.json');
    fs.writeFileSync(brokenFile, '{"idle": ');
    const cases: Array<[message: RegExp, file: string]> = [
      [/unknown settings: brand\.colour/, writeJson(path.join(dir, 'unknown-key.json'), { idle: { timeoutSeconds: 30 }, brand: { name: 'Corner Shop', colour: '#000000' } })],
      [/idle\.timeoutSeconds/, writeJson(path.join(dir, 'bad-value.json'), { kiosk: { mode: 'vouchers' }, idle: { timeoutSeconds: 5 } })],
      [/PIN is never imported/, writeJson(path.join(dir, 'pin.json'), { kiosk: { mode: 'vouchers' }, manager: { pinHash: 'scrypt$1$1$1$a$b' } })],
      [/broken\.json: .*JSON/, brokenFile],
      [/no-such-file\.json: ENOENT/, path.join(dir, 'no-such-file.json')],
    ];
    const refused = await Promise.all(cases.map(([, file]) => kioskctl(dir, ['config', 'import', file])));
    cases.forEach(([message], index) => {
      expect(refused[index]).toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
      expect(refused[index]?.stderr).not.toMatch(noStack);
    });
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);
  });

  it('keeps the keys a provisioning file sets (one in the old kiosk.mode layout): shown with its values, refused to set and to import', async () => {
    const dir = tempDir();
    const env = { KIOSK_PROVISIONING_FILE: writeJson(path.join(tempDir(), 'provisioning.json'), { kiosk: { mode: 'vouchers' }, idle: { timeoutSeconds: 90 } }) };
    const [set, imported, doctor] = await Promise.all([
      kioskctl(dir, ['config', 'set', 'kiosk.modes', 'regular'], { env }),
      kioskctl(dir, ['config', 'import', writeJson(path.join(dir, 'other-mode.json'), { kiosk: { mode: 'regular' }, brand: { name: 'Corner Shop' } })], { env }),
      kioskctl(dir, ['doctor'], { env }),
    ]);
    expect(set).toMatchObject({ code: 2, stderr: expect.stringMatching(/kiosk\.modes is set by the provisioning file/) });
    expect(imported).toMatchObject({ code: 2, stderr: expect.stringMatching(/provisioning file.*: kiosk\.modes$/m) });
    expect(doctor.code).toBe(0);
    expect(doctorRows(doctor.stdout).config).toEqual(['OK', 'valid; 2 keys locked by the provisioning file']);

    // An export from a sibling kiosk carries the locked keys with the same values: that changes nothing.
    const sibling = await kioskctl(dir, ['config', 'import', writeJson(path.join(dir, 'sibling.json'), { kiosk: { mode: 'vouchers' }, brand: { name: 'Corner Shop' } })], { env });
    expect(sibling).toMatchObject({ code: 0, stdout: expect.stringMatching(/^imported 1 setting from /) });
    const shown = JSON.parse((await kioskctl(dir, ['config', 'show'], { env })).stdout);
    expect(shown).toMatchObject({ kiosk: { modes: ['vouchers'] }, idle: { timeoutSeconds: 90 }, brand: { name: 'Corner Shop' } });
  });
});

describe('kioskctl secrets and PIN', () => {
  it('stores a secret read from stdin; status, config and the data folder never show it', async () => {
    const dir = tempDir();
    const secret = `fake-api-key-${crypto.randomUUID()}`;
    const set = await kioskctl(dir, ['secrets', 'set', 'api-key'], { stdin: `${secret}\n` });
    expect(set).toMatchObject({ code: 0, stdout: 'api-key stored in the keychain\n' });
    expect(await keychain.get('apiKey')).toBe(secret);

    const [status, shown] = await Promise.all([kioskctl(dir, ['secrets', 'status']), kioskctl(dir, ['config', 'show'])]);
    expect(status.code).toBe(0);
    // Which kiosk it reports on, then what is stored.
    expect(status.stdout).toBe(
      formatTable([
        ['kiosk', dir],
        ['keychain service', keychainService],
        ['keychain', 'available'],
        ['api-key', 'stored'],
        ['access-token', 'not stored'],
        ['pat', 'not stored'],
        ['mqtt-password', 'not stored'],
      ]),
    );
    for (const run of [set, status, shown]) expect(run.stdout + run.stderr).not.toContain(secret);
    expect(fs.existsSync(path.join(dir, 'logs', 'kiosk.log'))).toBe(true);
    expect(filesContaining(dir, secret)).toEqual([]);

    expect(await kioskctl(dir, ['secrets', 'remove', 'api-key'])).toMatchObject({ code: 0, stdout: 'api-key removed from the keychain\n' });
    expect(await keychain.get('apiKey')).toBeNull();
  });

  it('stores the fleet broker\'s password as mqtt-password', async () => {
    const dir = tempDir();
    const password = `fake-broker-pw-${crypto.randomUUID()}`;
    const set = await kioskctl(dir, ['secrets', 'set', 'mqtt-password'], { stdin: `${password}\n` });
    expect(set).toMatchObject({ code: 0, stdout: 'mqtt-password stored in the keychain\n' });
    expect(await keychain.get('mqttPassword')).toBe(password);
    expect(await kioskctl(dir, ['secrets', 'remove', 'mqtt-password'])).toMatchObject({ code: 0 });
  });

  it('never takes a secret from the command line, refuses empty ones, and says plainly when no keychain is reachable', async () => {
    const dir = tempDir();
    const secret = `fake-argv-secret-${crypto.randomUUID()}`;
    const [asArgument, asName, empty, twoLines, noKeychain] = await Promise.all([
      kioskctl(dir, ['secrets', 'set', 'api-key', secret], { stdin: 'piped-too' }),
      kioskctl(dir, ['secrets', 'set', secret], { stdin: 'piped-too' }),
      kioskctl(dir, ['secrets', 'set', 'access-token'], { stdin: ' \n' }),
      kioskctl(dir, ['secrets', 'set', 'pat'], { stdin: 'one\ntwo\n' }),
      kioskctl(dir, ['secrets', 'set', 'pat'], { stdin: 'fake-pat', env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' } }),
    ]);
    expect(asArgument).toMatchObject({ code: 2, stderr: expect.stringMatching(/read from stdin, never from the command line/) });
    expect(asName).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown secret name; use api-key, access-token, pat/) });
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringMatching(/empty/) });
    expect(twoLines).toMatchObject({ code: 2, stderr: expect.stringMatching(/single line/) });
    expect(noKeychain).toMatchObject({ code: 1, stderr: expect.stringMatching(/^kioskctl: No OS keychain is reachable\.[^\n]*\n$/) });
    for (const run of [asArgument, asName]) expect(run.stdout + run.stderr).not.toContain(secret);
    expect((await keychain.status()).stored).toEqual({ apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false });
  });

  it('asks for a pipe when stdin is a terminal, so a secret is never typed on screen', async () => {
    // In-process: a child's stdin cannot be made a terminal here without a pty.
    let output = '';
    const code = await runKioskctl({
      dataDir: tempDir(),
      args: ['secrets', 'set', 'api-key'],
      keychainService,
      stdin: { isTTY: true, read: () => Promise.reject(new Error('a terminal must not be read')) },
      stdout: (text) => (output += text),
      stderr: (text) => (output += text),
    });
    expect(code).toBe(2);
    expect(output).toMatch(/read from stdin, not typed here; pipe it in/);
  });

  it('sets the PIN from stdin as a scrypt hash; the PIN itself is nowhere in the data folder', async () => {
    const dir = tempDir();
    const pin = '97153864';
    expect(await kioskctl(dir, ['pin', 'set'], { stdin: `${pin}\n` })).toMatchObject({ code: 0, stdout: 'manager PIN set\n' });
    const before = fs.readFileSync(configFile(dir), 'utf8');
    const stored = JSON.parse(before).manager.pinHash as string;
    expect(stored).toMatch(/^scrypt\$/);
    expect(await verifyPin(pin, stored)).toBe(true);
    expect(await verifyPin('97153865', stored)).toBe(false);
    expect(filesContaining(dir, pin)).toEqual([]);

    const refused = await Promise.all([
      kioskctl(dir, ['pin', 'set'], { stdin: '12a4' }),
      kioskctl(dir, ['pin', 'set', '4711'], { stdin: '4711' }),
    ]);
    expect(refused.map((run) => run.code)).toEqual([2, 2]);
    expect(refused[0]?.stderr).toBe('kioskctl: a PIN is 4 to 8 digits\n');
    expect(refused[1]?.stderr).toMatch(/the PIN is read from stdin/);
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);
  });
});

describe('kioskctl on a kiosk\'s own files', () => {
  it('config show and config get never print the PIN hash, only whether one is set', async () => {
    const dir = tempDir();
    const unset = await Promise.all([kioskctl(dir, ['config', 'show']), kioskctl(dir, ['config', 'get', 'manager.pinHash'])]);
    expect(JSON.parse(unset[0].stdout).manager).toEqual({ pinHash: 'not set', secretsUnchecked: false, setupUnfinished: false, setupCode: null });
    expect(unset[1]).toMatchObject({ code: 0, stdout: '"not set"\n' });
    expect(await kioskctl(dir, ['pin', 'set'], { stdin: '4711' })).toMatchObject({ code: 0 });
    const hash = JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).manager.pinHash as string;
    const [shown, got] = await Promise.all([kioskctl(dir, ['config', 'show']), kioskctl(dir, ['config', 'get', 'manager.pinHash'])]);
    expect(JSON.parse(shown.stdout).manager).toEqual({ pinHash: 'set', secretsUnchecked: false, setupUnfinished: false, setupCode: null });
    expect(got).toMatchObject({ code: 0, stdout: '"set"\n' });
    for (const run of [shown, got]) expect(run.stdout + run.stderr).not.toContain(hash.split('$').at(-1));
  });

  it('the read-only commands never write, create or move anything in the settings, even a file with bad values', async () => {
    const dir = tempDir();
    const original = JSON.stringify({ idle: { timeoutSeconds: 5 }, kiosk: { mode: 'vouchers' }, manager: { pinHash: 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g' } });
    fs.writeFileSync(configFile(dir), original);
    const runs = await Promise.all(
      [['config', 'show'], ['config', 'get', 'kiosk.modes'], ['config', 'keys'], ['doctor'], ['secrets', 'status']].map((args) => kioskctl(dir, args)),
    );
    expect(JSON.parse(runs[0]!.stdout)).toMatchObject({ kiosk: { modes: ['vouchers'] }, idle: { timeoutSeconds: 60 }, manager: { pinHash: 'set' } });
    expect(runs[1]!.stdout).toBe('["vouchers"]\n');
    expect(doctorRows(runs[3]!.stdout).config).toEqual(['FAIL', expect.stringMatching(/config key idle\.timeoutSeconds is invalid/)]);
    for (const run of runs) expect(run.stderr).not.toMatch(noStack);
    // Not even a log line: the running kiosk's log is not a look's to write or rotate.
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(original);

    // A folder that does not exist yet is not made by looking.
    const missing = path.join(tempDir(), 'not-yet');
    expect((await kioskctl(missing, ['config', 'show'])).code).toBe(0);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('on a read-only data folder: looks as usual; a change is refused in one line with exit code 78', async () => {
    const dir = tempDir();
    await kioskctl(dir, ['config', 'set', 'kiosk.modes', 'vouchers']);
    fs.rmSync(path.join(dir, 'logs'), { recursive: true, force: true });
    const before = fs.readFileSync(configFile(dir), 'utf8');
    const restore = makeFolderReadOnly(dir);
    try {
      const [shown, set] = await Promise.all([kioskctl(dir, ['config', 'get', 'kiosk.modes']), kioskctl(dir, ['config', 'set', 'kiosk.modes', 'regular'])]);
      expect(shown).toMatchObject({ code: 0, stdout: '["vouchers"]\n' });
      expect(set.code).toBe(78);
      expect(set.stderr).toMatch(/^kioskctl: the data folder .* cannot be written \((EPERM|EACCES)\); nothing was changed\n$/);
    } finally {
      restore();
    }
    expect(fs.readFileSync(configFile(dir), 'utf8')).toBe(before);
  });
});

describe('kioskctl doctor', () => {
  it('fails, row by row, against an API nobody answers and a scanner that is not there; reports a broken config.json without moving it', async () => {
    // Held for the whole test and hanging up on every connection: a port merely closed could be
    // taken meanwhile by another test's server (which would answer).
    const nobody = net.createServer((socket) => socket.on('data', () => socket.destroy()));
    const closedPort = await new Promise<number>((resolve) => {
      nobody.listen(0, '127.0.0.1', () => resolve((nobody.address() as net.AddressInfo).port));
    });
    onTestFinished(() => void nobody.close());
    const dir = tempDir();
    const settings = {
      api: { baseUrl: `http://127.0.0.1:${closedPort}/api` },
      scanner: { connection: 'serial', serial: { path: path.join(dir, 'ttyUSB9') } },
    };
    const broken = tempDir();
    fs.writeFileSync(configFile(broken), '{"kiosk": ');
    const [imported, stored, brokenDoctor] = await Promise.all([
      kioskctl(dir, ['config', 'import', writeJson(path.join(dir, 'settings.json'), settings)]),
      kioskctl(dir, ['secrets', 'set', 'api-key'], { stdin: 'fake-unused-key' }),
      kioskctl(broken, ['doctor']),
    ]);
    expect([imported.code, stored.code]).toEqual([0, 0]);

    const doctor = await kioskctl(dir, ['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^CHECK\s+STATUS\s+DETAIL\n/);
    const rows = doctorRows(doctor.stdout);
    expect(rows).toMatchObject({
      config: ['OK', 'valid; no keys locked by the provisioning file'],
      mode: ['OK', `connected to http://127.0.0.1:${closedPort}`],
      // No boot credential on a test machine: with-keyring.sh unlocked it, as a desktop session would.
      keychain: ['OK', 'reachable; unlocked by the desktop session (no boot credential)'],
      credentials: ['OK', 'api key stored'],
      api: ['FAIL', expect.stringMatching(/^network: /)],
      shop: ['FAIL', expect.stringMatching(/api\.shopUuid is not set/)],
      scanner: ['FAIL', expect.stringMatching(/ttyUSB9 not found/)],
    });

    expect(brokenDoctor.code).toBe(1);
    expect(doctorRows(brokenDoctor.stdout).config).toEqual(['FAIL', expect.stringMatching(/config file unreadable/)]);
    expect(fs.readFileSync(configFile(broken), 'utf8')).toBe('{"kiosk": ');
  });

  it('reports a settings file over its bound as refused unread, and leaves it where it is', async () => {
    const dir = tempDir();
    fs.writeFileSync(configFile(dir), `{}${' '.repeat(1024 * 1024)}`);
    const doctor = await kioskctl(dir, ['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctorRows(doctor.stdout).config).toEqual(['FAIL', expect.stringMatching(/config file refused unread; starting on defaults: .*too large/)]);
    expect(fs.statSync(configFile(dir)).size).toBeGreaterThan(1024 * 1024);
  });

  it('passes against a real platform with the stored credentials; fails when the platform refuses a key or the shop', async () => {
    const sandbox = await startSandbox({ dataDir: tempDir(), port: 0 });
    try {
      const dir = tempDir();
      const { credentials, shops } = sandbox.manifest;
      const shop = shops[0]!;
      const [imported, stored] = await Promise.all([
        kioskctl(dir, ['config', 'import', writeJson(path.join(dir, 'settings.json'), { api: { baseUrl: sandbox.baseUrl, shopUuid: shop.uuid } })]),
        kioskctl(dir, ['secrets', 'set', 'api-key'], { stdin: credentials.api_key }),
      ]);
      expect([imported.code, stored.code]).toEqual([0, 0]);

      const passing = await kioskctl(dir, ['doctor']);
      expect(passing.code).toBe(0);
      const rows = doctorRows(passing.stdout);
      expect(Object.keys(rows)).toEqual(['config', 'mode', 'keychain', 'credentials', 'api', 'shop', 'pat', 'scanner', 'broker', 'update', 'ledger', 'printer']);
      expect(Object.entries(rows).filter(([, [status]]) => status !== 'OK')).toEqual([
        ['pat', ['SKIP', 'not stored']],
        ['broker', ['SKIP', 'no fleet broker (fleet.mqtt.url is not set)']],
        ['update', ['SKIP', 'updates are off (update.feedUrl is not set)']],
      ]);
      // Set up first as the demo (its slips kept as previews), the kiosk kept that printer setting.
      expect(rows.printer).toEqual(['OK', 'preview only: each slip is kept as an SVG in the data folder']);
      expect(rows.api?.[1]).toMatch(/^reachable, api key accepted \(List Vouchers in \d+ ms\)$/);
      // The console's shop check: the name comes from the portal session the platform created for the shop.
      expect(rows.shop?.[1]).toBe(`${shop.name} (${shop.uuid}; portal session created with the api key)`);
      expect(passing.stdout).not.toContain(credentials.api_key);

      // Portal sessions go with the access token when one is stored, as the kiosk's do: a wrong one fails the shop.
      await kioskctl(dir, ['secrets', 'set', 'access-token'], { stdin: 'fake-wrong-access-token' });
      const wrongToken = await kioskctl(dir, ['doctor']);
      expect(wrongToken.code).toBe(1);
      expect(doctorRows(wrongToken.stdout)).toMatchObject({
        api: ['OK', expect.any(String)],
        shop: ['FAIL', expect.stringMatching(new RegExp(`^${shop.uuid} refused with the access token: auth \\(401\\)`))],
      });

      // The right token and a pat: the pat is stored, and said to be unverified.
      await Promise.all([
        kioskctl(dir, ['secrets', 'set', 'access-token'], { stdin: credentials.access_token }),
        kioskctl(dir, ['secrets', 'set', 'pat'], { stdin: credentials.personal_access_token }),
      ]);
      const withToken = await kioskctl(dir, ['doctor']);
      expect(withToken.code).toBe(0);
      expect(doctorRows(withToken.stdout)).toMatchObject({
        credentials: ['OK', 'api key, access token, pat stored'],
        shop: ['OK', `${shop.name} (${shop.uuid}; portal session created with the access token)`],
        pat: ['SKIP', 'stored, not verified (no check without a voucher)'],
      });

      // A wrong api key, and a shop the platform does not know: two findings in one run.
      const unknownShop = crypto.randomUUID();
      await Promise.all([
        kioskctl(dir, ['config', 'set', 'api.shopUuid', unknownShop]),
        kioskctl(dir, ['secrets', 'set', 'api-key'], { stdin: 'fake-wrong-key' }),
      ]);
      const refused = await kioskctl(dir, ['doctor']);
      expect(refused.code).toBe(1);
      expect(doctorRows(refused.stdout)).toMatchObject({
        api: ['FAIL', expect.stringMatching(/api key was refused \(401\)/)],
        shop: ['FAIL', expect.stringMatching(new RegExp(`^${unknownShop} refused with the access token: not_found`))],
      });
      for (const secret of [credentials.api_key, credentials.access_token, credentials.personal_access_token]) {
        expect(filesContaining(dir, secret)).toEqual([]);
        for (const run of [passing, wrongToken, withToken, refused]) expect(run.stdout).not.toContain(secret);
      }
    } finally {
      await sandbox.close();
    }
    // Eight steps of kioskctl runs one after another, each a fresh tsx process.
  }, 90_000);
});

describe('kioskctl doctor: the receipt printer (#31 §3)', () => {
  it('asks the printer how it is: out of paper fails, with what printer.required then means; a loaded one is ready', async () => {
    const printer = await standInPrinterOnTcp();
    onTestFinished(() => printer.close());
    const dir = tempDir();
    writeJson(configFile(dir), { schemaVersion: 2, printer: { kind: 'network', host: '127.0.0.1', port: printer.settings['printer.port'], required: true } });
    printer.setPaper('out');
    const empty = doctorRows((await kioskctl(dir, ['doctor'])).stdout).printer;
    expect(empty).toEqual(['FAIL', `network printer at 127.0.0.1:${printer.settings['printer.port']}: paper out; printer.required is on, so no voucher is redeemed`]);
    printer.setPaper('near_end');
    const low = doctorRows((await kioskctl(dir, ['doctor'])).stdout).printer;
    expect(low).toEqual(['OK', `network printer at 127.0.0.1:${printer.settings['printer.port']}: ready, paper near its end`]);
  });
});

describe('kioskctl doctor: the fleet broker', () => {
  /** Every file under `dir` with its bytes: what a read-only command must leave exactly as it was. */
  const snapshot = (dir: string) =>
    Object.fromEntries(
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map((name) => path.join(dir, name))
        .filter((file) => fs.statSync(file).isFile())
        .map((file) => [file, fs.readFileSync(file, 'utf8')]),
    );

  it('is refused by a real Mosquitto with the wrong password and says so, connects with the right one, writes nothing', async () => {
    const broker = await startMosquitto({ users: { kiosk: 'kiosk-pw' }, acl: { kiosk: ['loyalty-kiosk/k1/#'] } });
    try {
      const dir = tempDir();
      const settings = { fleet: { kioskId: 'k1', mqtt: { url: broker.url, username: 'kiosk' } } };
      const [imported, stored] = await Promise.all([
        kioskctl(dir, ['config', 'import', writeJson(path.join(os.tmpdir(), `fleet-${crypto.randomUUID()}.json`), settings)]),
        kioskctl(dir, ['secrets', 'set', 'mqtt-password'], { stdin: 'wrong-broker-password' }),
      ]);
      expect([imported.code, stored.code]).toEqual([0, 0]);
      const before = snapshot(dir);

      const refused = await kioskctl(dir, ['doctor']);
      expect(refused.code).toBe(1);
      expect(doctorRows(refused.stdout).broker).toEqual([
        'FAIL',
        expect.stringMatching(new RegExp(`^127\\.0\\.0\\.1:${broker.port}: not authorized \\(.*\\): check fleet\\.mqtt\\.username and the mqtt-password secret$`)),
      ]);
      expect(refused.stdout).not.toContain('wrong-broker-password');
      // Doctor only looks: no log line, no config, nothing else in the data folder changed.
      expect(snapshot(dir)).toEqual(before);

      await kioskctl(dir, ['secrets', 'set', 'mqtt-password'], { stdin: 'kiosk-pw' });
      const connected = await kioskctl(dir, ['doctor']);
      expect(doctorRows(connected.stdout).broker).toEqual(['OK', `connected to 127.0.0.1:${broker.port} as kiosk`]);

      await broker.down();
      const away = await kioskctl(dir, ['doctor']);
      expect(doctorRows(away.stdout).broker).toEqual(['FAIL', `127.0.0.1:${broker.port}: nothing answers there (connection refused)`]);
    } finally {
      await broker.stop();
    }
  }, 30_000);
});

describe('kioskctl setup-code (#34 §2)', () => {
  it('prints a fresh kiosk\'s setup code, the same each time; once a PIN is set, that none is needed', async () => {
    const dir = tempDir();
    const first = await kioskctl(dir, ['setup-code']);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d{8}\n$/) });
    await expect(kioskctl(dir, ['setup-code'])).resolves.toMatchObject({ code: 0, stdout: first.stdout });
    expect(await kioskctl(dir, ['pin', 'set'], { stdin: '4711' })).toMatchObject({ code: 0 });
    await expect(kioskctl(dir, ['setup-code'])).resolves.toMatchObject({ code: 0, stdout: 'a manager PIN is set: the console opens with it, and no setup code is needed\n' });

    const configured = tempDir();
    writeJson(path.join(configured, 'config.json'), { api: { baseUrl: 'https://loyalty.example/api' } });
    await expect(kioskctl(configured, ['setup-code'])).resolves.toMatchObject({ code: 2, stderr: expect.stringContaining('set the PIN with kioskctl pin set') });
  });

  it('prints the code IT chose in the provisioning file instead of making one, and never takes one that is not 8 digits', async () => {
    const dir = tempDir();
    const chosen = { KIOSK_PROVISIONING_FILE: writeJson(path.join(tempDir(), 'provisioning.json'), { manager: { setupCode: '24681357' } }) };
    await expect(kioskctl(dir, ['setup-code'], { env: chosen })).resolves.toMatchObject({ code: 0, stdout: '24681357\n' });
    expect(fs.existsSync(path.join(dir, 'setup-code'))).toBe(false);

    const typo = { KIOSK_PROVISIONING_FILE: writeJson(path.join(tempDir(), 'provisioning.json'), { manager: { setupCode: '2468' } }) };
    await expect(kioskctl(dir, ['setup-code'], { env: typo })).resolves.toMatchObject({ code: 0, stdout: expect.stringMatching(/^(?!2468\n)\d{8}\n$/) });
  });
});

describe('kioskctl setup-qr (#34 §2)', () => {
  const KEY = 'sk_live_' + 'k'.repeat(48);
  const SHOP = '0b8e1f4e-3c2a-4d7b-9a51-2f6c8d9e0a1b';

  it('seals a card for this fresh kiosk with its own setup code, or for another with --code; the key from stdin only', async () => {
    const dir = tempDir();
    const made = await kioskctl(dir, ['setup-qr', '--url', 'https://loyalty.example/api', '--shop', SHOP], { stdin: `${KEY}\n` });
    expect(made).toMatchObject({ code: 0, stdout: expect.stringMatching(/^LKSETUP1\.[A-Za-z0-9_-]+\n$/) });
    expect(made.stdout).not.toContain('kkkk');
    const code = (await kioskctl(dir, ['setup-code'])).stdout.trim();
    expect(openSetupCard(made.stdout, code)).toEqual({ baseUrl: 'https://loyalty.example/api', shopUuid: SHOP, apiKey: KEY });

    const svg = path.join(tempDir(), 'card.svg');
    const elsewhere = await kioskctl(dir, ['setup-qr', '--url', 'http://192.168.1.20:8080/api', '--code', '24681357', '--svg', svg], { stdin: KEY });
    expect(elsewhere.code).toBe(0);
    expect(openSetupCard(elsewhere.stdout, '24681357')).toEqual({ baseUrl: 'http://192.168.1.20:8080/api', shopUuid: null, apiKey: KEY });
    expect(fs.readFileSync(svg, 'utf8')).toMatch(/^<svg /);
    expect(fs.statSync(svg).mode & 0o777).toBe(0o600);
  });

  it('refuses, making nothing: no address, a bad one, a code that is not 8 digits, a key on the command line, a kiosk set up already', async () => {
    const dir = tempDir();
    for (const [args, said] of [
      [['setup-qr', '--shop', SHOP], /expected setup-qr --url URL/],
      [['setup-qr', '--url', 'ftp://loyalty.example'], /baseUrl: /],
      [['setup-qr', '--url', 'https://loyalty.example/api', '--code', '1234'], /8 digits/],
      [['setup-qr', '--url', 'https://loyalty.example/api', '--key', KEY], /an unknown option, or a word where none belongs/],
      [['setup-qr', '--url', 'https://loyalty.example/api', KEY], /an unknown option, or a word where none belongs/],
    ] as const) {
      const run = await kioskctl(dir, [...args], { stdin: KEY });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 2, stdout: '', stderr: expect.stringMatching(said) });
      expect(run.stderr).not.toContain(KEY);
    }
    expect(await kioskctl(dir, ['pin', 'set'], { stdin: '4711' })).toMatchObject({ code: 0 });
    await expect(kioskctl(dir, ['setup-qr', '--url', 'https://loyalty.example/api'], { stdin: KEY })).resolves.toMatchObject({ code: 2, stderr: expect.stringContaining('give the setup code of the kiosk the card is for with --code') });
  });
});

describe('kioskctl autostart', () => {
  it('from a checkout without the installed package, enable refuses and installs nothing; status and disable are safe (#34 §1)', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const configHome = tempDir();
    const env = { XDG_CONFIG_HOME: configHome };
    const unit = path.join(configHome, 'systemd/user/loyalty-kiosk.service');
    const entry = path.join(configHome, 'autostart/loyalty-kiosk.desktop');
    expect(fs.existsSync('/usr/bin/loyalty-kiosk')).toBe(false);

    const enabled = await kioskctl(dataDir, ['autostart', 'enable'], { env });
    expect(enabled.code).toBe(2);
    expect(enabled.stderr).toContain('/usr/bin/loyalty-kiosk does not exist here');
    expect(enabled.stderr).toContain('loyalty-kiosk-browser.service');
    expect([fs.existsSync(unit), fs.existsSync(entry)]).toEqual([false, false]);
    expect((await kioskctl(dataDir, ['autostart', 'status'], { env })).stdout).not.toMatch(/installed/);
    for (let round = 0; round < 2; round++) expect((await kioskctl(dataDir, ['autostart', 'disable'], { env })).code).toBe(0);
    // Autostart is the user's session, not the kiosk's data: the data folder is left alone.
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('kioskctl report (#30 §2)', () => {
  /** Rows as the kiosk's own ledger writes them: two redemptions and a cancel, one voucher named like a formula. */
  function ledgerWithRedemptions(dir: string) {
    const ledger = testLedger(dir);
    const redeem = (code: string, voucherName: string) => {
      const attempt = ledgerAttempt(code, { voucherName });
      ledger.record({ kind: 'locked', attempt });
      ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem', redemptionUuid: `r-${code}` });
    };
    redeem('COFFEE-1', 'Free coffee');
    redeem('FORMULA-1', '=HYPERLINK("http://evil.example","x")');
    const cancelled = ledgerAttempt('TEA-1');
    ledger.record({ kind: 'locked', attempt: cancelled });
    ledger.record({ kind: 'released', attempt: cancelled, reason: 'cancel' });
    closeTestLedgers();
  }

  // Each kioskctl run is a Node process of its own (about 1.5 s on a loaded 2-core machine): a
  // test runs few in a row, and reads that do not depend on each other side by side.
  it('reads the X and the CSV of the open shift, formulas kept as text', async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    const [x, csv] = await Promise.all([kioskctl(dir, ['report', 'x']), kioskctl(dir, ['report', 'csv'])]);
    expect(x.code).toBe(0);
    expect(x.stdout).toMatch(/^X \(shift 1, not closed\)/);
    expect(x.stdout).toMatch(/^redemptions +2$/m);
    expect(x.stdout).toMatch(/^ {2}cancel +1$/m);

    expect(csv.code).toBe(0);
    const rows = parseCsv(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...LEDGER_COLUMNS]);
    expect(rows.map((row) => [row.kind, row.voucherCode])).toEqual([
      ['locked', 'COFFEE-1'],
      ['redeemed', 'COFFEE-1'],
      ['locked', 'FORMULA-1'],
      ['redeemed', 'FORMULA-1'],
      ['locked', 'TEA-1'],
      ['released', 'TEA-1'],
    ]);
    // What a spreadsheet would run is text.
    expect(rows[3]!.voucherName).toBe('\'=HYPERLINK("http://evil.example","x")');
  });

  it('closes a shift with a Z only while no kiosk holds the data folder, and reads the Zs after', async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    // A running kiosk holds the folder: the Z is its own to make, and nothing changes.
    const held = lockDataDir(dir);
    const refused = await kioskctl(dir, ['report', 'z']);
    held.release();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/console \(Reports\)/);
    expect((await kioskctl(dir, ['report', 'list'])).stdout).toBe('no Z report yet\n');

    const z = await kioskctl(dir, ['report', 'z']);
    expect(z.code).toBe(0);
    expect(z.stdout).toMatch(/^Z 1 \(shift 1\)/);
    const [list, show, x, csv] = await Promise.all([
      kioskctl(dir, ['report', 'list']),
      kioskctl(dir, ['report', 'show', '1']),
      kioskctl(dir, ['report', 'x']),
      kioskctl(dir, ['report', 'csv', '--shift', '1']),
    ]);
    expect(list.stdout).toMatch(/^1 +1 +\S+ +\S+ +2$/m);
    expect(show.stdout).toBe(z.stdout);
    expect(x.stdout).toMatch(/^X \(shift 2, not closed\)[\s\S]*^redemptions +0$/m);
    expect(parseCsv(csv.stdout, { columns: true })).toHaveLength(6);
  });

  it('says a Z that does not exist, and a day it cannot read', async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    const [missing, badDay] = await Promise.all([kioskctl(dir, ['report', 'show', '9']), kioskctl(dir, ['report', 'csv', '--from', 'yesterday'])]);
    expect([missing.code, missing.stderr]).toEqual([2, 'kioskctl: there is no Z 9 (kioskctl report list)\n']);
    expect(badDay.code).toBe(2);
  });

  it('closes the shift through the kiosk that holds the folder, its one writer; refused while it holds a voucher lock (#30 §2)', async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    // The kiosk's side as its composition root wires it: the folder held, the ledger open, the socket listening.
    const held = lockDataDir(dir);
    const ledger = testLedger(dir);
    let locks = 1;
    const closeShift = async () => {
      try {
        return closeShiftByHand({ ledger, locksHeld: () => locks, logger: silentLogger }, 'kioskctl');
      } catch (error) {
        throw error instanceof ShiftBusy ? new ControlRefusal('busy', error.message) : error;
      }
    };
    const control = await startControlServer({ socketPath: dataFiles(dir).controlSocket, handlers: { closeShift }, logger: silentLogger });
    try {
      const busy = await kioskctl(dir, ['report', 'z']);
      expect([busy.code, busy.stderr]).toEqual([2, expect.stringMatching(/running kiosk refused the Z: a voucher lock is held/)]);
      expect(ledger.zReports()).toEqual([]);

      locks = 0;
      const z = await kioskctl(dir, ['report', 'z']);
      expect(z.code).toBe(0);
      expect(z.stdout).toMatch(/^Z 1 \(shift 1\)[\s\S]*^redemptions +2$/m);
      expect(ledger.status().shift).toBe(2);
    } finally {
      await control.close();
      held.release();
    }
  });

  it('says there is no ledger to read in a folder that has none, and writes nothing there', async () => {
    const dir = tempDir();
    const run = await kioskctl(dir, ['report', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no ledger to read/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("shows a Z's check against the platform, and the doctor names the mismatches and the shifts still to check (#30 §3)", async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    const ledger = testLedger(dir);
    ledger.closeShift();
    ledger.closeShift();
    expect(doctorRows((await kioskctl(dir, ['doctor'])).stdout).ledger).toEqual(['OK', 'readable and sound, shift 3 open; 2 closed shifts still to check against the platform']);
    const mismatch = { kind: 'fewer_at_platform', voucherCode: 'COFFEE-1', voucherName: null, ledgerRedemptions: 1, platformRedemptions: 0, ledgerRedeemedAt: null, platformRedeemedAt: null } as const;
    ledger.recordCheck(1, { voucherUuid: 'uuid-COFFEE-1', mismatch, resolved: 0 });
    ledger.recordCheck(1, { voucherUuid: 'uuid-COFFEE-2', mismatch: null, resolved: 1 });
    ledger.finishReconciliation(1);

    const z = await kioskctl(dir, ['report', 'show', '1']);
    expect(z.stdout).toMatch(/^checked with the platform +done: 2 vouchers, 1 open attempts settled, 1 mismatches$/m);
    expect(z.stdout).toMatch(/^ {2}COFFEE-1 +fewer at platform: ledger 1, platform 0$/m);
    expect((await kioskctl(dir, ['report', 'show', '2'])).stdout).toMatch(/^checked with the platform +under way: 0 of 0 vouchers/m);
    expect(doctorRows((await kioskctl(dir, ['doctor'])).stdout).ledger).toEqual([
      'OK',
      'readable and sound, shift 3 open; the platform disagrees with 1 voucher of the newest reconciled Z (kioskctl report show N); 1 closed shift still to check against the platform',
    ]);
  });

  it('doctor: a sound ledger passes; a damaged one kept aside fails until it is moved out', async () => {
    const dir = tempDir();
    ledgerWithRedemptions(dir);
    expect(doctorRows((await kioskctl(dir, ['doctor'])).stdout).ledger).toEqual(['OK', 'readable and sound, shift 1 open']);
    fs.writeFileSync(`${dataFiles(dir).ledger}.corrupt-1764300000000`, 'damaged');
    expect(doctorRows((await kioskctl(dir, ['doctor'])).stdout).ledger).toEqual(['FAIL', expect.stringMatching(/kept aside \(ledger\.sqlite\.corrupt-1764300000000\)/)]);
  });
});
