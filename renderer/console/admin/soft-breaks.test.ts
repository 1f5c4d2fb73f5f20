import { describe, expect, it } from 'vitest';
import { softBreaks } from './soft-breaks.std.ts';

describe('softBreaks', () => {
  it('cuts after @ . _ - and keeps every character', () => {
    expect(softBreaks('sanne.devries@example.nl')).toEqual(['sanne.', 'devries@', 'example.', 'nl']);
    expect(softBreaks('available_until')).toEqual(['available_', 'until']);
    expect(softBreaks('KOFFIE24')).toEqual(['KOFFIE24']);
    expect(softBreaks('')).toEqual(['']);
  });
});
