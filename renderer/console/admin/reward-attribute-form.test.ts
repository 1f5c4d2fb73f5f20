import { beforeAll, describe, expect, it } from 'vitest';
import { RewardAttributeType } from '../../../api/reward-attributes.std.ts';
import { i18n } from '../../i18n/i18n.svelte';
import { emptyRewardAttributeDraft, rewardAttributeBody, takesOptions } from './reward-attribute-form.std.ts';

// The one t() of the kiosk, in English, with the admin tabs' messages loaded as the console loads them.
const t = i18n.t;
beforeAll(() => i18n.loadCatalogue('admin'));

describe('rewardAttributeBody', () => {
  it('accepts every type, with options only for select and multi_select', () => {
    for (const type of RewardAttributeType.options) {
      const options = takesOptions(type) ? [{ key: 'Vanilla', value: 'vanilla' }] : [];
      const result = rewardAttributeBody({ ...emptyRewardAttributeDraft(), name: `a_${type}`, type, options }, t);
      expect(result, type).toEqual({
        ok: true,
        value: { name: `a_${type}`, type, ...(takesOptions(type) ? { options: [{ label: 'Vanilla', value: 'vanilla' }] } : {}) },
      });
    }
    expect(RewardAttributeType.options.filter(takesOptions)).toEqual(['select', 'multi_select']);
  });

  it('sends the optional texts that are filled in, trimmed', () => {
    const draft = { name: ' flavour ', label: 'Flavour', description: ' Which one ', placeholder: '', type: 'text' as const, options: [{ key: 'kept', value: 'for later' }] };
    expect(rewardAttributeBody(draft, t)).toEqual({ ok: true, value: { name: 'flavour', label: 'Flavour', description: 'Which one', type: 'text' } });
  });

  it('refuses a select without options before anything is sent', () => {
    for (const type of ['select', 'multi_select'] as const) {
      expect(rewardAttributeBody({ ...emptyRewardAttributeDraft(), name: 'size', type }, t)).toEqual({
        ok: false,
        problem: { summary: t('problem.check_fields'), fields: { options: [t('field.options_required')] } },
      });
    }
  });

  it('names every problem by field: name, type, each option row', () => {
    expect(rewardAttributeBody(emptyRewardAttributeDraft(), t)).toMatchObject({
      ok: false,
      problem: { fields: { name: [t('field.required')], type: [t('field.choose')] } },
    });
    const rows = rewardAttributeBody({ ...emptyRewardAttributeDraft(), name: 'size', type: 'select', options: [{ key: 'S', value: 's' }, { key: ' ', value: 'm' }] }, t);
    expect(rows).toMatchObject({ ok: false, problem: { fields: { 'options.1.label': [t('field.required')] } } });
  });
});
