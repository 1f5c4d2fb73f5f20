import { describe, expect, it } from 'vitest';
import { groupedProofCode, spokenProofCode } from './proof-code-text.std.ts';

describe('the proof code for eyes and ears (#31 §2)', () => {
  it('groups ten digits 3, 3 and 4 for the eye, and spaces every digit for the voice', () => {
    expect(groupedProofCode('0000005724')).toBe('000 000 5724');
    expect(spokenProofCode('0000005724')).toBe('0 0 0 0 0 0 5 7 2 4');
  });
});
