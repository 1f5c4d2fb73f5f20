import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import QRCode from 'qrcode';
import { toBuffer as barcodePng } from 'bwip-js/node';

const run = promisify(execFile);

export interface CodeVideoContent {
  qr: string;
  /** 12 or 13 digits; bwip-js adds or checks the check digit. None: the QR code alone. */
  ean13?: string;
}

/**
 * Where the codes sit in the 1280x720 picture:
 * - `centred`: the QR code above the EAN-13, both inside the aiming frame, as a shopper holds a
 *   phone or card up to it (what the kiosk decodes first, renderer/camera/decode-region.std.ts);
 * - `side-by-side`: the QR code on the left, the EAN-13 on the right, each half outside the aiming
 *   frame, so only the whole-frame decode reads them.
 */
export type CodeLayout = 'centred' | 'side-by-side';

interface Placement {
  qrWidth: number;
  eanHeightMm: number;
  /** ffmpeg overlay positions (W, H: the picture; w, h: the code). */
  qrAt: string;
  eanAt: string;
}

const placements: Record<CodeLayout, Placement> = {
  centred: { qrWidth: 240, eanHeightMm: 8, qrAt: 'x=(W-w)/2:y=118', eanAt: 'x=(W-w)/2:y=366' },
  'side-by-side': { qrWidth: 360, eanHeightMm: 30, qrAt: 'x=140:y=(H-h)/2', eanAt: 'x=700:y=(H-h)/2' },
};

/**
 * Writes a short 1280x720 .y4m for Chromium's fake camera (--use-file-for-fake-video-capture):
 * a QR code and (when given) an EAN-13 on a plain light-grey background, laid out as `layout`
 * says, with a little sensor-like noise so no two frames are identical. Chromium loops the file,
 * so a second is plenty.
 */
export async function writeCodeVideo(dir: string, content: CodeVideoContent, layout: CodeLayout = 'centred'): Promise<string> {
  const placement = placements[layout];
  const qrPng = join(dir, `qr-${layout}.png`);
  const video = join(dir, `codes-${layout}.y4m`);
  await QRCode.toFile(qrPng, content.qr, { width: placement.qrWidth, margin: 4 });
  const inputs = ['-i', qrPng];
  let overlays = `[0][1]overlay=${placement.qrAt}`;
  if (content.ean13 !== undefined) {
    const eanPng = join(dir, `ean13-${layout}.png`);
    await writeFile(eanPng, await eanImage(content.ean13, placement.eanHeightMm));
    inputs.push('-i', eanPng);
    overlays += `[a];[a][2]overlay=${placement.eanAt}`;
  }
  await run('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=0xdddddd:s=1280x720:r=60:d=1',
    ...inputs,
    '-filter_complex', `${overlays},noise=alls=6:allf=t,format=yuv420p`,
    '-frames:v', '20',
    video,
  ]);
  return video;
}

function eanImage(digits: string, heightMm: number): Promise<Buffer> {
  return barcodePng({ bcid: 'ean13', text: digits, scale: 4, height: heightMm, includetext: true, backgroundcolor: 'FFFFFF', paddingwidth: 12, paddingheight: 12 });
}
