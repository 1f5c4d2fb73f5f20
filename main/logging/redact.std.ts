/**
 * Redaction applied to every log line before it reaches a file: secrets by field name and by
 * known value, voucher codes and card numbers down to their last four characters, e-mail
 * addresses masked. Logs are shared with support staff; shoppers' data must not be in them.
 */
const SECRET_FIELD = /(key|token|secret|password|passwd|pin|authorization|credential)/i;
const CODE_FIELD = /^(code|value|identifier|contact_identifier_value|card|voucher_code|scan)$/i;
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;
const BEARER = /(Bearer\s+)[^\s"']+/gi;

export function maskEmail(text: string): string {
  return text.replace(EMAIL, '$1•••@$2');
}

export function maskCode(code: string): string {
  return code.length <= 4 ? '•'.repeat(code.length) : `•••${code.slice(-4)}`;
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
    return maskEmail(output.replace(BEARER, '$1[redacted]'));
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
