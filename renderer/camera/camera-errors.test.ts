import { describe, expect, it } from 'vitest';
import { cameraErrorKind } from './camera-errors.std.ts';

const domError = (name: string) => new DOMException('getUserMedia failed', name);

describe('cameraErrorKind', () => {
  it.each([
    ['NotFoundError', 'no-camera'],
    ['NotAllowedError', 'permission-denied'],
    ['SecurityError', 'permission-denied'],
    ['NotReadableError', 'camera-busy'],
    ['AbortError', 'camera-busy'],
  ] as const)('%s is %s', (name, kind) => {
    expect(cameraErrorKind(domError(name))).toBe(kind);
  });

  it('reads OverconstrainedError by name, as it is not a DOMException', () => {
    const overconstrained = Object.assign(new Error('no such camera'), { name: 'OverconstrainedError', constraint: 'facingMode' });
    expect(cameraErrorKind(overconstrained)).toBe('no-camera');
  });

  it('calls anything else unknown', () => {
    expect(cameraErrorKind(domError('TypeError'))).toBe('unknown');
    expect(cameraErrorKind(new Error('boom'))).toBe('unknown');
    expect(cameraErrorKind('boom')).toBe('unknown');
    expect(cameraErrorKind(null)).toBe('unknown');
  });
});
