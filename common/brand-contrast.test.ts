import { describe, expect, it } from 'vitest';
import { KioskConfig } from './config-schema.std.ts';
import { contrastWithWhite } from './brand-contrast.std.ts';

describe('brand colour contrast', () => {
  it('measures white on the brand colour as WCAG does', () => {
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1);
    expect(contrastWithWhite('#000000')).toBeCloseTo(21);
    expect(contrastWithWhite('#1f5fbf')).toBeGreaterThan(4.5);
    expect(contrastWithWhite('#f5c400')).toBeLessThan(4.5);
  });

  it('is refused by the one config schema below AA, wherever a colour is set (console, kioskctl, provisioning, fleet) (#34 §2)', () => {
    const refused = KioskConfig.safeParse({ brand: { color: '#f5c400' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['brand', 'color'], message: expect.stringMatching(/contrast 1\.\d:1 with white/) });
    expect(KioskConfig.safeParse({ brand: { color: '#0b6e4f' } }).success).toBe(true);
  });
});
