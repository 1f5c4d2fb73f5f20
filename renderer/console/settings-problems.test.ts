import { describe, expect, it } from 'vitest';
import { problemsFromIssues, problemsFromMessage } from './settings-problems.std.ts';
import { withDotted } from '../../common/dotted-keys.std.ts';
import { ConsoleConfig } from './settings-schema.std.ts';

const FIELDS = ['idle.timeoutSeconds', 'brand.name', 'brand.color', 'locale.default', 'locale.enabled', 'kiosk.modes'];
const issuesOf = (values: Record<string, unknown>) => {
  const result = ConsoleConfig.safeParse(withDotted(ConsoleConfig.parse({}), values));
  if (result.success) throw new Error('expected the schema to refuse');
  return result.error.issues;
};

describe('settings problems by field', () => {
  it('says the allowed range of a number, whatever was typed', () => {
    for (const typed of [5, 4000, 'soon', 12.5]) {
      expect(problemsFromIssues(issuesOf({ 'idle.timeoutSeconds': typed }), FIELDS).fields).toEqual({
        'idle.timeoutSeconds': { key: 'console.problem.range', params: { min: 10, max: 3600 } },
      });
    }
  });

  it('names the rule of a text, the colour and the languages', () => {
    const { fields, rest } = problemsFromIssues(
      issuesOf({ 'brand.name': '', 'brand.color': 'blue', 'locale.enabled': ['nl'], 'locale.default': 'en' }),
      FIELDS,
    );
    expect(fields).toEqual({
      'brand.name': { key: 'console.problem.required' },
      'brand.color': { key: 'console.problem.color' },
      'locale.default': { key: 'console.problem.default_language' },
    });
    expect(rest).toEqual([]);
    expect(problemsFromIssues(issuesOf({ 'brand.name': 'x'.repeat(61) }), FIELDS).fields).toEqual({
      'brand.name': { key: 'console.problem.too_long', params: { max: 60 } },
    });
    expect(problemsFromIssues(issuesOf({ 'locale.enabled': [] }), FIELDS).fields['locale.enabled']).toEqual({ key: 'console.problem.one_language' });
  });

  it('says a colour white text cannot be read on, and a time or a range by its form (#34 §2)', () => {
    const fields = [...FIELDS, 'schedule.nightlyRestart', 'schedule.quietHours.sunday'];
    expect(problemsFromIssues(issuesOf({ 'brand.color': '#f5c400', 'schedule.nightlyRestart': '4:30', 'schedule.quietHours.sunday': '18-9' }), fields).fields).toEqual({
      'brand.color': { key: 'console.problem.color_contrast' },
      'schedule.nightlyRestart': { key: 'console.problem.time' },
      'schedule.quietHours.sunday': { key: 'console.problem.time_range' },
    });
  });

  it('keeps issues of fields the form does not show apart', () => {
    expect(problemsFromIssues(issuesOf({ 'api.shopUuid': 'shop-1' }), FIELDS)).toMatchObject({ fields: {}, rest: [expect.any(String)] });
  });

  it('splits main\'s refusal by field, in main\'s words', () => {
    const message = 'idle.timeoutSeconds: Too small: expected number to be >=10; scanner.serial.path: gone';
    expect(problemsFromMessage(message, FIELDS)).toEqual({
      fields: { 'idle.timeoutSeconds': { text: 'Too small: expected number to be >=10' } },
      rest: ['scanner.serial.path: gone'],
    });
    expect(problemsFromMessage('kiosk.modes is set by the provisioning file and cannot be changed here', FIELDS).rest).toHaveLength(1);
  });
});
