import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18n } from '../../i18n/i18n.svelte';
import { describeFailure, issuesByField, unplacedMessages } from './problems.std.ts';

// The one t() of the kiosk, in English, with the admin tabs' messages loaded as the console loads them.
const t = i18n.t;
beforeAll(() => i18n.loadCatalogue('admin'));

describe('describeFailure', () => {
  it('puts the platform’s field errors under their fields', () => {
    const problem = describeFailure(
      { code: 'validation', message: 'The expiration_date must be after the activation_date.', platformCode: 1003, fieldErrors: { expiration_date: ['The expiration_date must be after the activation_date.'] } },
      t,
    );
    expect(problem).toEqual({ summary: 'Check the marked fields.', fields: { expiration_date: ['The expiration_date must be after the activation_date.'] } });
  });

  it('places a refusal without fields under the field it is about, in the platform’s words', () => {
    const taken = { code: 'conflict', message: 'A voucher with this code already exists.', platformCode: 80003 } as const;
    expect(describeFailure(taken, t, { 80003: 'code' }).fields).toEqual({ code: ['A voucher with this code already exists.'] });
    expect(describeFailure(taken, t)).toEqual({ summary: 'The platform refused this: A voucher with this code already exists.', fields: {} });
  });

  it('says plainly when the platform cannot be reached or the console locked itself', () => {
    expect(describeFailure({ code: 'timeout', message: 'GET /vouchers timed out' }, t).summary).toBe(t('problem.platform_unreachable'));
    expect(describeFailure({ code: 'forbidden', message: 'the console is locked' }, t).summary).toBe(t('problem.locked'));
    expect(describeFailure({ code: 'not_found', message: 'Voucher not found.', platformCode: 80004 }, t).summary).toBe('Not found: Voucher not found.');
    expect(describeFailure({ code: 'internal', message: 'something went wrong' }, t).summary).toBe('That did not work: something went wrong');
  });
});

describe('issuesByField', () => {
  it('keys issues by their path and says them in the manager’s language', () => {
    const schema = z.strictObject({
      name: z.string().min(1),
      uuid: z.guid(),
      count: z.number().int().min(1),
      type: z.enum(['a', 'b']),
      options: z.array(z.object({ label: z.string().min(1) })),
    });
    const result = schema.safeParse({ name: '', uuid: 'x', count: 0, type: '', options: [{ label: '' }] });
    i18n.use('nl');
    const fields = issuesByField(result.error!.issues, t).fields;
    i18n.use('en');
    expect(fields).toEqual({
      name: ['Vul dit in.'],
      uuid: ['Geen uuid (8-4-4-4-12 tekens).'],
      count: ['Een heel getal, minstens 1.'],
      type: ['Kies er een.'],
      'options.0.label': ['Vul dit in.'],
    });
  });
});

describe('unplacedMessages', () => {
  it('lists the messages of fields the form does not show, so none is lost', () => {
    const problem = { summary: 'x', fields: { code: ['taken'], 'custom_attributes.size': ['too long'] } };
    expect(unplacedMessages(problem, (field) => field === 'code')).toEqual(['custom_attributes.size: too long']);
    expect(unplacedMessages(null, () => false)).toEqual([]);
  });
});
