import { z } from 'zod';

/** Reward attributes: account-wide custom fields of rewards. */

export const RewardAttributeType = z.enum([
  'url',
  'text',
  'date',
  'phone',
  'float',
  'color',
  'email',
  'number',
  'select',
  'boolean',
  'rich_text',
  'date_time',
  'long_text',
  'date_range',
  'time_range',
  'identifier',
  'birth_date',
  'file_upload',
  'media_upload',
  'multi_select',
  'license_plate',
]);
export type RewardAttributeType = z.output<typeof RewardAttributeType>;

const typesWithOptions: readonly RewardAttributeType[] = ['select', 'multi_select'];

const ZeroOrOne = z.literal([0, 1]);

export const RewardAttribute = z
  .looseObject({
    name: z.string().describe('Internal value'),
    label: z.string(),
    placeholder: z.string().nullable(),
    description: z.string(),
    // Text, not the enum: a type added on the platform must not break the whole list.
    type: z.string().describe('One of the reward attribute types'),
    fieldType: z.string().describe('Seen: default, text, select'),
    options: z.array(z.looseObject({ label: z.string(), value: z.string() })),
    isServiceDefined: ZeroOrOne,
    isSoftReadOnly: ZeroOrOne,
    isHardReadOnly: ZeroOrOne,
  })
  .meta({ id: 'RewardAttribute' });
export type RewardAttribute = z.output<typeof RewardAttribute>;

/** The create answer: a bare object (no envelope), with the type echoed as `data_type`. */
export const CreatedRewardAttribute = z
  .looseObject({
    name: z.string(),
    label: z.string().nullable(),
    description: z.string().nullable(),
    data_type: z.string(),
    placeholder: z.string().nullable(),
    options: z.array(z.looseObject({ label: z.string(), value: z.union([z.number(), z.string()]) })),
  })
  .meta({ id: 'CreatedRewardAttribute' });
export type CreatedRewardAttribute = z.output<typeof CreatedRewardAttribute>;

export const CreateRewardAttributeBody = z
  .strictObject({
    name: z.string().min(1),
    label: z.string().optional(),
    description: z.string().optional(),
    type: RewardAttributeType,
    placeholder: z.string().optional(),
    options: z
      .array(z.strictObject({ label: z.string().min(1), value: z.union([z.string(), z.number()]) }))
      .optional()
      .describe('For select and multi_select only'),
  })
  .refine((body) => body.options === undefined || typesWithOptions.includes(body.type), {
    message: 'options are allowed for select and multi_select only',
    path: ['options'],
  })
  .meta({ id: 'CreateRewardAttributeBody' });
export type CreateRewardAttributeBody = z.input<typeof CreateRewardAttributeBody>;

export const RewardAttributeListResponse = z.looseObject({ data: z.array(RewardAttribute) });
