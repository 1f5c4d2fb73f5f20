/** Checked before any call: one @, a dotted domain, no spaces. The platform has the final word. */
export function looksLikeEmail(text: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(text.trim()) && text.trim().length <= 254;
}
