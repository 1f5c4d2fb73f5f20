/**
 * Redaction applied to every log line before it reaches a file: secrets by field name and by
 * known value, voucher codes and card numbers down to their last four characters, e-mail
 * addresses masked. Logs are shared with support staff; shoppers' data must not be in them.
 */

/**
 * Fields whose value is a secret, by exact name (case, `_` and `-` ignored). Not a substring
 * match: `keys` and `key` in an audit line name the setting that changed and must stay readable.
 */
const SECRET_FIELDS = new Set([
  'apikey',
  'xapikey',
  'accesstoken',
  'personalaccesstoken',
  'releasekey',
  'token',
  'secret',
  'password',
  'passwd',
  'pin',
  'pinhash',
  'authorization',
  'cookie',
  'credentials',
]);
const CODE_FIELD = /^(code|value|identifier|contact_identifier_value|card|voucher_code|scan)$/i;
/** Letters and digits of any script: `jürgen@bücher.de`, `用户@例子.广告` are addresses too. */
const EMAIL = /([\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]*@((?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}]{2,})/gu;
const BEARER = /(Bearer\s+)[^\s"']+/gi;
/**
 * Free text (error messages, a renderer's report) can quote what was scanned. A code-like token
 * is 6+ letters and digits mixed (KOFFIE24, KF9R4TBZ), 8+ digits (2710042000132) or 6+ capital
 * letters (WELKOMXX). Plain words, short numbers (ports, platform codes) and the capitalised words
 * a log really uses (statuses, error codes, HTTP methods, signals: READABLE_CAPITALS) stay
 * readable. UUIDs are matched whole first and kept, so the visit's portal-session uuid still ties
 * lines together.
 */
const UUID_OR_TOKEN = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|(?<![A-Za-z0-9])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/gi;
const CODE_LIKE = /^(?=.*[A-Za-z])(?=.*\d)|^\d{8,}$|^[A-Z]{6,}$/;
const READABLE_CAPITALS = new Set([
  // Voucher and lock states
  'ACTIVE', 'INACTIVE', 'REDEEMED', 'LOCKED', 'UNLOCKED', 'RELEASED', 'EXPIRED', 'DEACTIVATED', 'PENDING',
  // Node and libuv error codes a log quotes
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTFOUND', 'EADDRINUSE', 'EADDRNOTAVAIL',
  'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT', 'EACCES', 'ENOSPC', 'EEXIST', 'EISDIR', 'ENOTDIR', 'ENOTEMPTY',
  'EMFILE', 'EBUSY', 'EAGAIN', 'ECANCELED',
  // Signals and HTTP
  'SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGSEGV', 'SIGABRT', 'DELETE', 'OPTIONS',
  'UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT',
]);

export function maskEmail(text: string): string {
  return text.replace(EMAIL, '$1•••@$2');
}

export function maskCode(code: string): string {
  return code.length <= 4 ? '•'.repeat(code.length) : `•••${code.slice(-4)}`;
}

function isCodeLike(token: string): boolean {
  return !token.includes('-') && CODE_LIKE.test(token) && !READABLE_CAPITALS.has(token);
}

/** Masks every code-like token in free text (see CODE_LIKE), leaving UUIDs whole. */
function maskCodesInText(text: string): string {
  return text.replace(UUID_OR_TOKEN, (token) => (isCodeLike(token) ? maskCode(token) : token));
}

function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name.replace(/[-_]/g, '').toLowerCase());
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

  /** Redacts at every depth; an object met again on its own path is not followed (it is a cycle). */
  value(input: unknown, fieldName = '', path: ReadonlySet<object> = new Set()): unknown {
    if (isSecretField(fieldName) && input !== null && input !== undefined && input !== false) {
      return '[redacted]';
    }
    if (typeof input === 'string') {
      return CODE_FIELD.test(fieldName) ? maskCode(input) : this.text(input);
    }
    if (input instanceof Error) return this.text(`${input.name}: ${input.message}`);
    if (input === null || typeof input !== 'object') return input;
    if (path.has(input)) return '[circular]';
    const inner = new Set(path).add(input);
    if (Array.isArray(input)) return input.map((item) => this.value(item, fieldName, inner));
    return Object.fromEntries(Object.entries(input).map(([name, item]) => [name, this.value(item, name, inner)]));
  }
}
