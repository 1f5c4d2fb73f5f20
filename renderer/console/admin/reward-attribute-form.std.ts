import {
  CreateRewardAttributeBody,
  RewardAttributeType,
} from '../../../api/reward-attributes.std.ts';
import type { Translate } from '../../i18n/message-types.std.ts';
import type { Pair } from './pairs.std.ts';
import { issuesByField, type Checked } from './problems.std.ts';

/** The types whose values are picked from a list of options. */
const WITH_OPTIONS = RewardAttributeType.extract(['select', 'multi_select']);

export const takesOptions = (type: string): boolean => WITH_OPTIONS.safeParse(type).success;

/**
 * The API's create schema plus the platform's rule that a select needs options: refused here,
 * before sending, rather than by the platform.
 */
const CheckedBody = CreateRewardAttributeBody.refine(
  (body) => !takesOptions(body.type) || (body.options?.length ?? 0) > 0,
  { path: ['options'], params: { key: 'field.options_required' } },
);

export interface RewardAttributeDraft {
  name: string;
  label: string;
  description: string;
  placeholder: string;
  type: RewardAttributeType | '';
  options: Pair[];
}

export const emptyRewardAttributeDraft = (): RewardAttributeDraft => ({
  name: '',
  label: '',
  description: '',
  placeholder: '',
  type: '',
  options: [],
});

/**
 * The create body, or the schema's issues by field (`options.<row>.label`). Empty optional texts
 * stay out; options go only with the types that take them, so switching type loses nothing typed.
 */
export function rewardAttributeBody(draft: RewardAttributeDraft, t: Translate): Checked<CreateRewardAttributeBody> {
  const typed = (field: 'label' | 'description' | 'placeholder') => (draft[field].trim() ? { [field]: draft[field].trim() } : {});
  const body = {
    name: draft.name.trim(),
    ...typed('label'),
    ...typed('description'),
    ...typed('placeholder'),
    type: draft.type,
    ...(takesOptions(draft.type) ? { options: draft.options.map(({ key, value }) => ({ label: key.trim(), value: value.trim() })) } : {}),
  };
  const parsed = CheckedBody.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: issuesByField(parsed.error.issues, t) };
}
