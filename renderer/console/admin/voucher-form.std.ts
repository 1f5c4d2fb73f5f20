import {
  CreateVoucherBody,
  ListVouchersQuery,
  type UpdateVoucherBody,
  type VoucherStatus,
} from '../../../api/vouchers.std.ts';
import type { Translate } from '../../i18n/message-types.std.ts';
import { localInputToUtc } from './local-time.std.ts';
import type { Pair } from './pairs.std.ts';
import { issuesByField, type Checked } from './problems.std.ts';

/** Page sizes offered; the platform takes up to 500. */
export const PAGE_SIZES = [10, 30, 50, 100, 250, 500] as const;

export interface VoucherFilters {
  promotionUuid: string;
  contactUuid: string;
  status: VoucherStatus | '';
  limit: number;
}

export const noFilters = (): VoucherFilters => ({ promotionUuid: '', contactUuid: '', status: '', limit: 30 });

export function listQuery(filters: VoucherFilters, page: number, t: Translate): Checked<ListVouchersQuery & { limit: number }> {
  const query = {
    limit: filters.limit,
    page,
    ...(filters.promotionUuid.trim() ? { promotion_uuid: filters.promotionUuid.trim() } : {}),
    ...(filters.contactUuid.trim() ? { contact_uuid: filters.contactUuid.trim() } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
  const parsed = ListVouchersQuery.safeParse(query);
  return parsed.success ? { ok: true, value: query } : { ok: false, problem: issuesByField(parsed.error.issues, t) };
}

/** The create form as typed: dates as datetime-local values (local time), numbers as text. */
export interface VoucherDraft {
  promotionUuid: string;
  code: string;
  contactUuid: string;
  activation: string;
  expiration: string;
  totalRedemptions: string;
  attributes: Pair[];
}

export const emptyVoucherDraft = (): VoucherDraft => ({
  promotionUuid: '',
  code: '',
  contactUuid: '',
  activation: '',
  expiration: '',
  totalRedemptions: '',
  attributes: [],
});

/**
 * The create body, or why not: left-out fields stay out (the promotion's rules apply), dates go in
 * UTC, attributes by name. Messages are keyed by the body's field names, attribute rows as
 * `custom_attributes.<row>.name`, so platform and console refusals land in the same places.
 */
export function voucherBody(draft: VoucherDraft, t: Translate): Checked<CreateVoucherBody> {
  const fields: Record<string, string[]> = {};
  const body: Record<string, unknown> = { promotion_uuid: draft.promotionUuid.trim() };
  if (!draft.promotionUuid.trim()) fields.promotion_uuid = [t('field.required')];
  if (draft.code.trim()) body.code = draft.code.trim();
  if (draft.contactUuid.trim()) body.contact_uuid = draft.contactUuid.trim();
  for (const [field, value] of [['activation_date', draft.activation], ['expiration_date', draft.expiration]] as const) {
    if (!value) continue;
    const utc = localInputToUtc(value);
    if (utc) body[field] = utc;
    else fields[field] = [t('field.datetime')];
  }
  const total = draft.totalRedemptions.trim();
  if (total && /^\d+$/.test(total)) body.total_redemptions_allowed = Number(total);
  else if (total) fields.total_redemptions_allowed = [t('field.whole_number', { min: 1 })];
  if (draft.attributes.length > 0) {
    const attributes: Record<string, string> = {};
    draft.attributes.forEach(({ key, value }, row) => {
      const name = key.trim();
      if (!name) fields[`custom_attributes.${row}.name`] = [t('field.required')];
      else if (Object.hasOwn(attributes, name)) fields[`custom_attributes.${row}.name`] = [t('field.duplicate')];
      else attributes[name] = value;
    });
    body.custom_attributes = attributes;
  }
  const parsed = CreateVoucherBody.safeParse(body);
  const schemaFields = parsed.success ? {} : issuesByField(parsed.error.issues, t).fields;
  // The console's own message says more than the schema's where both speak of a field.
  const all = { ...schemaFields, ...fields };
  if (Object.keys(all).length > 0) return { ok: false, problem: { summary: t('problem.check_fields'), fields: all } };
  return { ok: true, value: body as CreateVoucherBody };
}

/** Which changes the platform allows a voucher in this status. */
export function allowedChanges(status: VoucherStatus): { activate: boolean; deactivate: boolean; expiration: boolean } {
  const open = status === 'ACTIVE' || status === 'INACTIVE';
  return { activate: status === 'DEACTIVATED', deactivate: open || status === 'EXPIRED', expiration: open };
}

/**
 * A new expiration date. The update requires a status: ACTIVE keeps an ACTIVE voucher as it is,
 * and an INACTIVE one too (it only waits for its activation date; it was never deactivated).
 */
export function expirationUpdate(
  voucherUuid: string,
  local: string,
  t: Translate,
): Checked<UpdateVoucherBody & { voucherUuid: string }> {
  const utc = localInputToUtc(local);
  if (!utc) return { ok: false, problem: { summary: t('problem.check_fields'), fields: { expiration_date: [t('field.datetime')] } } };
  return { ok: true, value: { voucherUuid, status: 'ACTIVE', expiration_date: utc } };
}
