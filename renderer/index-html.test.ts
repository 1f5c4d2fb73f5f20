import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The page every screen is shown in, as it is served (the build keeps its head as it is).
const html = fs.readFileSync(path.join(import.meta.dirname, 'index.html'), 'utf8');
const viewport = () => new DOMParser().parseFromString(html, 'text/html').querySelector('meta[name="viewport"]')?.getAttribute('content') ?? '';

describe('the kiosk page', () => {
  it('lets a shopper zoom: no user-scalable=no, no maximum scale (#33 §13, WCAG 1.4.4)', () => {
    expect(viewport()).toBe('width=device-width, initial-scale=1');
    expect(viewport()).not.toMatch(/user-scalable|maximum-scale/);
  });
});
