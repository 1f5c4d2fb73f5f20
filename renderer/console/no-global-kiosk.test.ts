import { describe, expect, it } from 'vitest';

// Every console source (tests aside), as text.
const sources = {
  ...import.meta.glob<string>(['./**/*.svelte', './**/*.ts', '!./**/*.test.ts', '!./**/*.test-support.ts'], { query: '?raw', import: 'default', eager: true }),
};

describe('the console', () => {
  it('reaches main only through the managers it is given: no file calls the global kiosk (#29 §3)', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(40);
    const reaching = Object.entries(sources)
      .filter(([, text]) => /kiosk\.dom(\.ts)?['"]|window\.kiosk\b|\bkiosk\.(on|[a-z]+[A-Z]\w*)\(/.test(text))
      .map(([path]) => path);
    expect(reaching).toEqual([]);
  });
});
