/** A PNG's size as its header (IHDR) gives it, read from the image in base64; null when it is no PNG. */
export function pngSize(base64: string): { width: number; height: number } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return null;
  // The signature (8 bytes), IHDR's length and type (8), then its width and height (4 each): 32 base64 characters.
  const head = Uint8Array.from(atob(base64.slice(0, 32)), (char) => char.charCodeAt(0));
  if (head.length < 24 || !PNG_SIGNATURE.every((byte, at) => head[at] === byte)) return null;
  if (String.fromCharCode(...head.subarray(12, 16)) !== 'IHDR') return null;
  const view = new DataView(head.buffer);
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  return size.width > 0 && size.height > 0 ? size : null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
