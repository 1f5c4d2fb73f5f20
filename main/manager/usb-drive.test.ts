import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { createExportDelivery } from './export-delivery.std.ts';
import { saveOnUsbDrive, usbDrives } from './usb-drive.node.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-usb-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A /media root with a stick at `name`, and a mounts table as /proc/self/mounts writes it. */
function mediaWithStick(name: string) {
  const root = fs.mkdtempSync(path.join(scratch, 'media-'));
  const stick = path.join(root, 'kiosk', name);
  fs.mkdirSync(stick, { recursive: true });
  const mountsFile = path.join(root, 'mounts');
  const escaped = stick.replaceAll(' ', '\\040');
  fs.writeFileSync(mountsFile, `/dev/sda2 / ext4 rw 0 0\n/dev/sdb1 ${escaped} vfat rw,nosuid 0 0\ntmpfs /run tmpfs rw 0 0\n`);
  return { root, stick, mountsFile };
}

describe('usbDrives (exports a manager can take away, #34 §2)', () => {
  it('finds a stick mounted under a removable-media root, its name with a space read back whole', () => {
    const { root, stick, mountsFile } = mediaWithStick('SHOP STICK');
    expect(usbDrives({ mountsFile, roots: [root] })).toEqual([stick]);
  });

  it('passes over the system disks and mounts elsewhere, and a machine without a mounts table', () => {
    const { mountsFile } = mediaWithStick('STICK');
    expect(usbDrives({ mountsFile, roots: [path.join(scratch, 'elsewhere')] })).toEqual([]);
    expect(usbDrives({ mountsFile: path.join(scratch, 'no-such-mounts') })).toEqual([]);
  });

  it('writes the export onto the stick under its own name only', () => {
    const { stick } = mediaWithStick('STICK');
    const file = saveOnUsbDrive(stick, '../../loyalty-kiosk-diagnostics-2026-11-29.json', '{"ok":true}');
    expect(file).toBe(path.join(stick, 'loyalty-kiosk-diagnostics-2026-11-29.json'));
    expect(fs.readFileSync(file, 'utf8')).toBe('{"ok":true}');
  });
});

describe('createExportDelivery', () => {
  it('puts an export on a plugged-in stick before any save dialog or download', async () => {
    const { stick } = mediaWithStick('STICK');
    const saveFile = vi.fn(async () => '/home/kiosk/x.json');
    const deliver = createExportDelivery({ saveFile }, silentLogger, { drives: () => [stick], save: saveOnUsbDrive });
    await expect(deliver('x.json', '{}')).resolves.toEqual({ fileName: 'x.json', content: '{}', delivery: 'usb', savedTo: path.join(stick, 'x.json') });
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('without a stick, saves where the host lets the manager pick, else leaves it to download', async () => {
    const none = { drives: () => [], save: saveOnUsbDrive };
    await expect(createExportDelivery({ saveFile: async () => '/chosen/x.json' }, silentLogger, none)('x.json', '{}')).resolves.toMatchObject({ delivery: 'saved', savedTo: '/chosen/x.json' });
    await expect(createExportDelivery({}, silentLogger, none)('x.json', '{}')).resolves.toMatchObject({ delivery: 'download' });
  });
});
