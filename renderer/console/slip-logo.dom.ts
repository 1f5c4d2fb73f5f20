import { LOGO_MAX_HEIGHT, SCREEN_LOGO_MAX } from '../../common/config-schema.std.ts';
import { fitWithin, toBlackAndWhite } from './slip-logo.std.ts';

/** Any image the browser can read as a PNG (base64) no larger than max; rejects when the file is no image it can read. */
async function pngWithin(file: Blob, max: { width: number; height: number }, blackAndWhite: boolean): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const { width, height } = fitWithin(bitmap.width, bitmap.height, max.width, max.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  if (blackAndWhite) {
    const dots = context.getImageData(0, 0, width, height);
    toBlackAndWhite(dots.data);
    context.putImageData(dots, 0, 0);
  }
  return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}

/** The slip's logo: black and white, at most `maxWidth` dots wide, as it prints. */
export const slipLogoFrom = (file: Blob, maxWidth: number) => pngWithin(file, { width: maxWidth, height: LOGO_MAX_HEIGHT }, true);

/** The shopper screens' logo: in colour, within SCREEN_LOGO_MAX. */
export const screenLogoFrom = (file: Blob) => pngWithin(file, SCREEN_LOGO_MAX, false);
