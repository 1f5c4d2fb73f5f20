import type { z } from 'zod';
import type { MessageKey, MessageValues } from '../i18n/message-types.std.ts';
import { fieldKind } from './settings-schema.std.ts';

/** What is wrong with one field: a console message, or main's own words when nothing fits. */
export type FieldProblem = { key: MessageKey; params?: MessageValues } | { text: string };

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Fields whose rule is more than a type or a range: their own sentence. */
const RULES: Record<string, MessageKey> = {
  'brand.color': 'console.problem.color',
  'locale.default': 'console.problem.default_language',
  'locale.enabled': 'console.problem.one_language',
  'schedule.nightlyRestart': 'console.problem.time',
  'schedule.zReportAt': 'console.problem.time',
  ...Object.fromEntries(WEEKDAYS.map((day) => [`schedule.quietHours.${day}`, 'console.problem.time_range'] as const)),
};

/** A schema issue in plain words for the manager, by the kind of field it is on. */
function problemForIssue(field: string, issue: z.core.$ZodIssue): FieldProblem {
  // A well-formed brand colour refused is one white text cannot be read on.
  if (field === 'brand.color' && issue.code === 'custom') return { key: 'console.problem.color_contrast' };
  const rule = RULES[field];
  if (rule) return { key: rule };
  const kind = fieldKind(field);
  if (kind.kind === 'number') return { key: 'console.problem.range', params: { min: kind.min, max: kind.max } };
  if (kind.kind === 'text' && issue.code === 'too_big') return { key: 'console.problem.too_long', params: { max: kind.maxLength ?? 0 } };
  if (kind.kind === 'text') return { key: 'console.problem.required' };
  return { text: issue.message };
}

/** The first issue of each field among `fields`; issues elsewhere come back as `rest`. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], fields: readonly string[]) {
  const found: Record<string, FieldProblem> = {};
  const rest: string[] = [];
  for (const issue of issues) {
    const field = issue.path.join('.');
    if (!fields.includes(field)) rest.push(issue.message);
    else found[field] ??= problemForIssue(field, issue);
  }
  return { fields: found, rest };
}

/**
 * Main's refusal (`idle.timeoutSeconds: Too small…; brand.name: …`) split by field, in its own
 * words; parts that name no field of the form come back as `rest`.
 */
export function problemsFromMessage(message: string, fields: readonly string[]) {
  const found: Record<string, FieldProblem> = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const [, field, text] = /^([\w.]+): (.+)$/.exec(part) ?? [];
    if (field && text && fields.includes(field)) found[field] ??= { text };
    else rest.push(part);
  }
  return { fields: found, rest };
}
