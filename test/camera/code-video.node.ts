import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import QRCode from 'qrcode';
import { toBuffer as barcodePng } from 'bwip-js/node';

const run = promisify(execFile);

export interface CodeVideoContent {
  qr: string;
  /** 12 or 13 digits; bwip-js adds or checks the check digit. */
  ean13: string;
}

/**
 * Writes a short 1280x720 .y4m for Chromium's fake camera (--use-file-for-fake-video-capture):
 * a QR code and an EAN-13 side by side on a plain light-grey background, as a shopper would hold
 * a phone and a card up to the kiosk, with a little sensor-like noise so no two frames are identical.
 * Chromium loops the file, so a second is plenty.
 */
export async function writeCodeVideo(dir: string, content: CodeVideoContent): Promise<string> {
  const qrPng = join(dir, 'qr.png');
  const eanPng = join(dir, 'ean13.png');
  const video = join(dir, 'codes.y4m');
  await QRCode.toFile(qrPng, content.qr, { width: 360, margin: 4 });
  await writeFile(
    eanPng,
    await barcodePng({ bcid: 'ean13', text: content.ean13, scale: 4, height: 30, includetext: true, backgroundcolor: 'FFFFFF', paddingwidth: 12, paddingheight: 12 }),
  );
  await run('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=0xdddddd:s=1280x720:r=60:d=1',
    '-i', qrPng,
    '-i', eanPng,
    '-filter_complex', '[0][1]overlay=x=140:y=(H-h)/2[a];[a][2]overlay=x=700:y=(H-h)/2,noise=alls=6:allf=t,format=yuv420p',
    '-frames:v', '20',
    video,
  ]);
  return video;
}
