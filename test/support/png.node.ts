import zlib from 'node:zlib';

/** A greyscale PNG in base64, each dot black where `isBlack` says so: a logo for the slip tests. */
export function pngOf(width: number, height: number, isBlack: (x: number, y: number) => boolean): string {
  const rows = Array.from({ length: height }, (_, y) => [0, ...Array.from({ length: width }, (_, x) => (isBlack(x, y) ? 0 : 255))]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits a dot, greyscale, deflate, no filter, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows.flat()))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
