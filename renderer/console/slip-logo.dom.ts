import { LOGO_MAX_HEIGHT } from '../../common/config-schema.std.ts';
import { fitWithin, toBlackAndWhite } from './slip-logo.std.ts';

/**
 * Any image the browser can read, as the slip's logo: a black-and-white PNG (base64) at most
 * `maxWidth` dots wide. Rejects when the file is no image it can read.
 */
export async function slipLogoFrom(file: Blob, maxWidth: number): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const { width, height } = fitWithin(bitmap.width, bitmap.height, maxWidth, LOGO_MAX_HEIGHT);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const dots = context.getImageData(0, 0, width, height);
  toBlackAndWhite(dots.data);
  context.putImageData(dots, 0, 0);
  return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
