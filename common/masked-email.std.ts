/**
 * `sanne.devries@example.nl` → `s•••@example.nl`: the shopper recognises it, a passer-by learns
 * nothing. Shopper screens and the console's voucher list show only this.
 */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
