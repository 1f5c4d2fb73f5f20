/**
 * Which part of a camera frame to decode, and at what size. Shoppers hold their code to the
 * aiming frame (CameraPreview.svelte), so the kiosk decodes that region, scaled down to what the
 * codes need, and only every FULL_FRAME_EVERY-th frame the whole picture at full size.
 */

/** A source rectangle in frame pixels and the size it is decoded at. */
export interface DecodeRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  outputWidth: number;
  outputHeight: number;
}

/**
 * The aiming frame is 62% of the preview's width, 4:3, centred, and the preview shows the
 * largest 4:3 centre cut of the picture (object-fit: cover in a 4:3 box). The region adds a
 * margin around it, so a code that pokes past the brackets still reads.
 */
export const AIMING_REGION_SHARE = 0.7;
const AIMING_ASPECT = 4 / 3;

/**
 * Width the aiming region is decoded at. At 480 px a code that fills half the aiming frame
 * (a 720p camera) still has about 2.5 px per EAN-13 module and 5 per QR module, where ZXing
 * reads reliably; the decode costs about a fifth of the full 1280x720 frame (see `npm run bench`).
 */
export const AIMING_REGION_OUTPUT_WIDTH = 480;

/**
 * Every Nth frame sent to the decoder is decoded whole, so a code held away from the aiming frame
 * still reads, within N decodes. 4: three in four frames cost the small region, so a typical
 * frame decodes well under half of jsQR's time, while an off-centre code waits at most three small
 * decodes (about 30 ms) plus one full one.
 */
export const FULL_FRAME_EVERY = 4;

export function aimingRegion(frameWidth: number, frameHeight: number): DecodeRegion {
  const shownWidth = Math.min(frameWidth, frameHeight * AIMING_ASPECT);
  const width = Math.round(shownWidth * AIMING_REGION_SHARE);
  const height = Math.round(width / AIMING_ASPECT);
  // Never scale up: a low-resolution camera's pixels are all there is.
  const outputWidth = Math.min(width, AIMING_REGION_OUTPUT_WIDTH);
  return {
    x: Math.round((frameWidth - width) / 2),
    y: Math.round((frameHeight - height) / 2),
    width,
    height,
    outputWidth,
    outputHeight: Math.round((outputWidth * height) / width),
  };
}

export function fullFrameRegion(frameWidth: number, frameHeight: number): DecodeRegion {
  return { x: 0, y: 0, width: frameWidth, height: frameHeight, outputWidth: frameWidth, outputHeight: frameHeight };
}

/** The region for the `index`-th frame sent to the decoder (from 0): the aiming region first. */
export function regionForFrame(index: number, frameWidth: number, frameHeight: number): DecodeRegion {
  const isFullFrame = index % FULL_FRAME_EVERY === FULL_FRAME_EVERY - 1;
  return isFullFrame ? fullFrameRegion(frameWidth, frameHeight) : aimingRegion(frameWidth, frameHeight);
}
