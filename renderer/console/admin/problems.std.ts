import type { z } from 'zod';
import type { BridgeError } from '../../../common/contract.std.ts';
import type { MessageKey, Translate } from '../../i18n/message-types.std.ts';

/**
 * What went wrong with a console action: one plain sentence for the form, and messages by field
 * (keys as the platform names them: `code`, `options.0.label`) to show under the fields.
 */
export interface Problem {
  summary: string;
  fields: Record<string, string[]>;
}

/** What the manager typed, checked before anything is sent. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/** The platform could not be asked at all: its own message would only confuse. */
const UNREACHABLE = new Set<BridgeError['code']>(['network', 'timeout', 'maintenance', 'server', 'unavailable']);

/**
 * A bridge failure in plain words. Field errors the platform gave go to their fields; `fieldOfCode`
 * places refusals the platform gives without a field (a taken voucher code) under the field they
 * are about, with the platform's own message.
 */
export function describeFailure(error: BridgeError, t: Translate, fieldOfCode: Record<number, string> = {}): Problem {
  const fields: Record<string, string[]> = { ...error.fieldErrors };
  const codeField = error.platformCode === undefined ? undefined : fieldOfCode[error.platformCode];
  if (codeField && !fields[codeField]) fields[codeField] = [error.message];
  if (Object.keys(fields).length > 0) return { summary: t('problem.check_fields'), fields };
  return { summary: summaryOf(error, t), fields };
}

function summaryOf(error: BridgeError, t: Translate): string {
  if (error.code === 'forbidden') return t('problem.locked');
  if (UNREACHABLE.has(error.code)) return t('problem.platform_unreachable');
  if (error.code === 'not_found') return t('problem.not_found', { message: error.message });
  if (error.code === 'conflict' || error.code === 'validation') return t('problem.refused', { message: error.message });
  return t('problem.failed', { message: error.message });
}

/** Schema issues as the manager reads them, by field: the same shape as the platform's field errors. */
export function issuesByField(issues: readonly z.core.$ZodIssue[], t: Translate): Problem {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    (fields[key] ??= []).push(issueText(issue, t));
  }
  return { summary: t('problem.check_fields'), fields };
}

function issueText(issue: z.core.$ZodIssue, t: Translate): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'number' ? t('field.whole_number', { min: Number(issue.minimum) }) : t('field.required');
    case 'invalid_format':
      if (issue.format === 'guid' || issue.format === 'uuid') return t('field.uuid');
      return issue.format === 'datetime' ? t('field.datetime') : t('field.invalid');
    case 'invalid_value':
      return t('field.choose');
    case 'custom':
      // Rules added in the console name their text; the schema's own say it in English.
      return typeof issue.params?.key === 'string' ? t(issue.params.key as MessageKey) : issue.message;
    default:
      return t('field.invalid');
  }
}

/** Field messages no field of the form shows: they must not vanish, so the summary lists them. */
export function unplacedMessages(problem: Problem | null, shown: (field: string) => boolean): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([field]) => !shown(field))
    .flatMap(([field, texts]) => texts.map((text) => (field ? `${field}: ${text}` : text)));
}
