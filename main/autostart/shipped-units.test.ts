import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startingExecutable } from './autostart.node.ts';

const UNITS_DIR = path.resolve(import.meta.dirname, '../../build/linux');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-units-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// verify refuses a unit whose ExecStart binary is missing, and /usr/bin/loyalty-kiosk only
// exists once the deb is installed: check a copy whose ExecStart is /bin/true instead.
// System mode, because `--user` needs a user manager's runtime folder, which this machine lacks.
function verify(unitFile: string): { status: number | null; stderr: string } {
  const copy = path.join(scratch, path.basename(unitFile));
  const text = fs.readFileSync(unitFile, 'utf8').replace(/^ExecStart=.*$/m, 'ExecStart=/bin/true');
  fs.writeFileSync(copy, text);
  const run = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

function setting(unitFile: string, key: string): string[] {
  const lines = fs.readFileSync(unitFile, 'utf8').split('\n');
  return lines.filter((line) => line.startsWith(`${key}=`)).map((line) => line.slice(key.length + 1));
}

describe.each(['loyalty-kiosk.service', 'loyalty-kiosk-browser.service'])('shipped unit %s', (name) => {
  const unitFile = path.join(UNITS_DIR, name);

  it('passes systemd-analyze verify without a single warning', () => {
    expect(verify(unitFile)).toEqual({ status: 0, stderr: '' });
  });

  it('restarts always, 5 s apart, and never gives up for good, in the graphical session (#34 §1)', () => {
    expect(setting(unitFile, 'Restart')).toEqual(['always']);
    expect(setting(unitFile, 'RestartSec')).toEqual(['5']);
    // 0 turns the start limit off: after five fast failures systemd would otherwise stop it for good.
    expect(setting(unitFile, 'StartLimitIntervalSec')).toEqual(['0']);
    expect(setting(unitFile, 'StartLimitBurst')).toEqual([]);
    expect(setting(unitFile, 'WantedBy')).toEqual(['graphical-session.target']);
  });
});

describe('the verify check', () => {
  it('reports a misspelt setting (so a clean result means something)', () => {
    const broken = path.join(scratch, 'broken.service');
    const text = fs.readFileSync(path.join(UNITS_DIR, 'loyalty-kiosk.service'), 'utf8');
    fs.writeFileSync(broken, text.replace('Restart=always', 'Restart=alwayz'));
    expect(verify(broken).stderr).toMatch(/restart specifier/);
  });
});

describe('shipped XDG autostart entry', () => {
  it('is an application entry that starts the installed app', () => {
    const entry = path.join(UNITS_DIR, 'loyalty-kiosk.desktop');
    const text = fs.readFileSync(entry, 'utf8');
    expect(text).toMatch(/^\[Desktop Entry\]$/m);
    expect(text).toMatch(/^Type=Application$/m);
    expect(text).toMatch(/^Exec=\/usr\/bin\/loyalty-kiosk$/m);
    // Under systemd the user unit runs the kiosk; the entry only serves sessions without it.
    expect(text).toMatch(/^X-GNOME-HiddenUnderSystemd=true$/m);
  });
});

describe('units pointed at an installed executable (the packaged app\'s autostart enable)', () => {
  // An install folder with a space, as electron-builder names it, and a real file for verify to find.
  const installDir = path.join(scratch, 'opt', 'Loyalty Kiosk');
  const executable = path.join(installDir, 'loyalty-kiosk');
  fs.mkdirSync(installDir, { recursive: true });
  fs.copyFileSync('/bin/true', executable);

  it('passes systemd-analyze verify, the path with its space kept whole', () => {
    const unit = path.join(scratch, 'installed', 'loyalty-kiosk.service');
    fs.mkdirSync(path.dirname(unit), { recursive: true });
    fs.writeFileSync(unit, startingExecutable(fs.readFileSync(path.join(UNITS_DIR, 'loyalty-kiosk.service'), 'utf8'), executable));
    expect(setting(unit, 'ExecStart')).toEqual([`"${executable}"`]);
    const run = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('keeps $, % and quotes literal in both files', () => {
    const odd = '/opt/a "b" $HOME 100%/kiosk';
    const unit = startingExecutable('ExecStart=/usr/bin/loyalty-kiosk\n', odd);
    const entry = startingExecutable('Exec=/usr/bin/loyalty-kiosk\n', odd);
    expect(unit).toBe('ExecStart="/opt/a \\"b\\" $$HOME 100%%/kiosk"\n');
    expect(entry).toBe('Exec="/opt/a \\"b\\" \\$HOME 100%%/kiosk"\n');
  });
});

describe('the unattended boot\'s units (build/boot, #34 §1)', () => {
  const BOOT_DIR = path.resolve(import.meta.dirname, '../../build/boot');

  it('loyalty-kiosk-keyring.service passes systemd-analyze verify and runs before greetd, with the credential sealed', () => {
    const unitFile = path.join(BOOT_DIR, 'loyalty-kiosk-keyring.service');
    expect(verify(unitFile)).toEqual({ status: 0, stderr: '' });
    expect(setting(unitFile, 'Before')).toEqual(['greetd.service']);
    expect(setting(unitFile, 'WantedBy')).toEqual(['greetd.service']);
    // Decrypted by systemd into the unit's private credentials, never from a file in clear.
    expect(setting(unitFile, 'LoadCredentialEncrypted')).toEqual(['keyring-password:/etc/loyalty-kiosk/keyring.cred']);
    expect(setting(unitFile, 'ExecStart')).toEqual(['/opt/Loyalty\\x20Kiosk/boot/keyring-handoff']);
  });

  it("greetd with the drop-in passes verify and never gives up (Debian's own stops after 5 failures in 30 s)", () => {
    const greetd = fs.readFileSync('/lib/systemd/system/greetd.service', 'utf8');
    expect(greetd).toMatch(/^StartLimitBurst=5$/m);
    const dropIn = path.join(BOOT_DIR, 'greetd-never-give-up.conf');
    // A drop-in's settings come after the unit's: appended, the same sections merge the same way.
    const merged = path.join(scratch, 'greetd.service');
    fs.writeFileSync(merged, `${greetd}\n${fs.readFileSync(dropIn, 'utf8')}`);
    expect(verify(merged)).toEqual({ status: 0, stderr: '' });
    expect(setting(merged, 'StartLimitIntervalSec').at(-1)).toBe('0');
    expect(setting(merged, 'Restart').at(-1)).toBe('always');
  });
});
