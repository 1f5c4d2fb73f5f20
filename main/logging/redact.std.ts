/**
 * Redaction applied to every log line before it reaches a file: secrets by field name and by
 * known value, voucher codes and card numbers down to their last four characters, e-mail
 * addresses masked. Logs are shared with support staff; shoppers' data must not be in them.
 */
const SECRET_FIELD = /(key|token|secret|password|passwd|pin|authorization|credential)/i;
const CODE_FIELD = /^(code|value|identifier|contact_identifier_value|card|voucher_code|scan)$/i;
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;
const BEARER = /(Bearer\s+)[^\s"']+/gi;
/**
 * Free text (error messages, a renderer's report) can quote what was scanned. A code-like token
 * is 6+ letters and digits mixed (KOFFIE24, KF9R4TBZ) or 8+ digits (2710042000132): plain words,
 * statuses (REDEEMED) and short numbers (ports, platform codes) stay readable. UUIDs are matched
 * whole first and kept, so the visit's portal-session uuid still ties lines together.
 */
const UUID_OR_TOKEN = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|(?<![A-Za-z0-9])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/gi;
const CODE_LIKE = /^(?=.*[A-Za-z])(?=.*\d)|^\d{8,}$/;

export function maskEmail(text: string): string {
  return text.replace(EMAIL, '$1•••@$2');
}

export function maskCode(code: string): string {
  return code.length <= 4 ? '•'.repeat(code.length) : `•••${code.slice(-4)}`;
}

/** Masks every code-like token in free text (see CODE_LIKE), leaving UUIDs whole. */
function maskCodesInText(text: string): string {
  return text.replace(UUID_OR_TOKEN, (token) => (token.includes('-') || !CODE_LIKE.test(token) ? token : maskCode(token)));
}

export class Redactor {
  #secrets = new Set<string>();

  /** Values (API keys, tokens) that must never appear, wherever they turn up in a line. */
  addSecret(value: string | null | undefined) {
    if (value && value.length >= 4) this.#secrets.add(value);
  }

  text(input: string): string {
    let output = input;
    for (const secret of this.#secrets) output = output.split(secret).join('[redacted]');
    return maskCodesInText(maskEmail(output.replace(BEARER, '$1[redacted]')));
  }

  value(input: unknown, fieldName = '', depth = 0): unknown {
    if (SECRET_FIELD.test(fieldName) && input !== null && input !== undefined && input !== false) {
      return '[redacted]';
    }
    if (typeof input === 'string') {
      return CODE_FIELD.test(fieldName) ? maskCode(input) : this.text(input);
    }
    if (input instanceof Error) return this.text(`${input.name}: ${input.message}`);
    if (depth > 4 || input === null || typeof input !== 'object') return input;
    if (Array.isArray(input)) return input.map((item) => this.value(item, fieldName, depth + 1));
    return Object.fromEntries(
      Object.entries(input).map(([name, item]) => [name, this.value(item, name, depth + 1)]),
    );
  }
}
