/** The proof code as the eye reads it at the till: groups of 3, 3 and 4, like a phone number. */
export function groupedProofCode(code: string): string {
  return [code.slice(0, 3), code.slice(3, 6), code.slice(6)].filter(Boolean).join(' ');
}

/** The proof code as speech says it: digit by digit, never as one big number. */
export function spokenProofCode(code: string): string {
  return [...code].join(' ');
}
