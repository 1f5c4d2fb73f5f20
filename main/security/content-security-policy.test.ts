import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './content-security-policy.std.ts';

const directive = (policy: string, name: string) => policy.split('; ').find((part) => part.startsWith(`${name} `));

describe('contentSecurityPolicy', () => {
  it('frames only the loyalty platform, and nothing at all without one', () => {
    expect(directive(contentSecurityPolicy('https://loyalty.example'), 'frame-src')).toBe('frame-src https://loyalty.example');
    expect(directive(contentSecurityPolicy(null), 'frame-src')).toBe("frame-src 'none'");
  });
  it('frames the origins the kiosk allows: the platform and its hosted pages (FrameOrigins)', () => {
    const policy = contentSecurityPolicy('https://loyalty.example', ['https://loyalty.example', 'https://portal.loyalty.example']);
    expect(directive(policy, 'frame-src')).toBe('frame-src https://loyalty.example https://portal.loyalty.example');
    expect(directive(policy, 'img-src')).toBe("img-src 'self' data: https://loyalty.example");
  });
  it('keeps scripts, connections and forms to the app itself', () => {
    const policy = contentSecurityPolicy('https://loyalty.example');
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(policy, 'object-src')).toBe("object-src 'none'");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });
  it('shows images only from the app, data: and the loyalty platform', () => {
    expect(directive(contentSecurityPolicy('https://loyalty.example'), 'img-src')).toBe("img-src 'self' data: https://loyalty.example");
    expect(directive(contentSecurityPolicy(null), 'img-src')).toBe("img-src 'self' data:");
  });
  it('allows no inline styles', () => {
    expect(directive(contentSecurityPolicy('https://loyalty.example'), 'style-src')).toBe("style-src 'self'");
  });
});
