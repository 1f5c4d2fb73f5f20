import fs from 'node:fs';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export interface RendererFile {
  file: string;
  contentType: string;
}

/**
 * Maps a URL path onto a file of the built renderer, for both hosts. Anything that would resolve
 * outside the folder (`/../`, encoded dots, absolute paths) or is not a file answers null.
 */
export function resolveRendererFile(rendererDir: string, urlPath: string): RendererFile | null {
  const root = path.resolve(rendererDir);
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return null;
  }
  const file = path.resolve(root, `.${relative}`);
  if (!file.startsWith(root + path.sep) || relative.includes('\0')) return null;
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
  return { file, contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
}
