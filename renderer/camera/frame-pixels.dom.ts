import type { DecodeRegion } from './decode-region.std.ts';

/** The region of `source` to decode, scaled to its output size, as a bitmap of its own. */
export function cutRegion(source: ImageBitmapSource, region: DecodeRegion): Promise<ImageBitmap> {
  return createImageBitmap(source, region.x, region.y, region.width, region.height, {
    resizeWidth: region.outputWidth,
    resizeHeight: region.outputHeight,
    resizeQuality: 'medium',
  });
}

/** ZXing reads RGBA pixels; one canvas is reused for every frame of the same size. */
export function createPixelReader(): (bitmap: ImageBitmap) => ImageData {
  let pixels: OffscreenCanvasRenderingContext2D | undefined;
  return (bitmap) => {
    if (!pixels || pixels.canvas.width !== bitmap.width || pixels.canvas.height !== bitmap.height) {
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { willReadFrequently: true });
      if (!context) throw new Error('no 2d context for the camera frame');
      pixels = context;
    }
    pixels.drawImage(bitmap, 0, 0);
    return pixels.getImageData(0, 0, bitmap.width, bitmap.height);
  };
}
