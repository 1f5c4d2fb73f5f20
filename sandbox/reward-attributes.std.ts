import type { z } from 'zod';
import type { CreateRewardAttributeBody } from '../api/reward-attributes.std.ts';
import { invalidField } from './errors.std.ts';
import type { RewardAttribute } from './state.std.ts';

const SELECT_TYPES: readonly string[] = ['select', 'multi_select'];
const TEXT_TYPES: readonly string[] = [
  'text', 'long_text', 'rich_text', 'url', 'email', 'phone', 'identifier', 'license_plate',
];

/** The form control the platform's admin would use; the spec has only seen these three. */
function fieldType(type: string): 'select' | 'text' | 'default' {
  if (SELECT_TYPES.includes(type)) return 'select';
  return TEXT_TYPES.includes(type) ? 'text' : 'default';
}

export function rewardAttributeListItem(attribute: RewardAttribute) {
  return {
    name: attribute.name,
    label: attribute.label,
    placeholder: attribute.placeholder,
    description: attribute.description,
    type: attribute.type,
    fieldType: fieldType(attribute.type),
    options: attribute.options.map((option) => ({ label: option.label, value: String(option.value) })),
    isServiceDefined: attribute.isServiceDefined,
    isSoftReadOnly: attribute.isSoftReadOnly,
    isHardReadOnly: attribute.isHardReadOnly,
  };
}

/**
 * Names are unique; select types need options. (The request schema already refuses options for
 * the other types.)
 */
export function createRewardAttribute(
  attributes: RewardAttribute[],
  input: z.output<typeof CreateRewardAttributeBody>,
) {
  if (attributes.some((attribute) => attribute.name === input.name)) {
    throw invalidField('name', 'The name has already been taken.');
  }
  const options = input.options ?? [];
  if (SELECT_TYPES.includes(input.type) && options.length === 0) {
    throw invalidField('options', `The options are required for a ${input.type} attribute.`);
  }
  const attribute: RewardAttribute = {
    name: input.name,
    label: input.label || input.name,
    description: input.description ?? '',
    type: input.type,
    placeholder: input.placeholder ?? null,
    options: options.map((option) => ({ label: option.label, value: option.value })),
    isServiceDefined: 0,
    isSoftReadOnly: 0,
    isHardReadOnly: 0,
  };
  attributes.push(attribute);
  return {
    name: attribute.name,
    label: attribute.label,
    description: attribute.description,
    data_type: attribute.type,
    placeholder: attribute.placeholder,
    options: attribute.options,
  };
}
