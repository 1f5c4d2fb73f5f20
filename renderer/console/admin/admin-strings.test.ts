import { describe, expect, it } from 'vitest';
import { RewardAttributeType, } from '../../../api/reward-attributes.std.ts';
import { VoucherStatus } from '../../../api/vouchers.std.ts';
import { LOCALES } from '../../../common/config-schema.std.ts';
import { adminMessages, adminText, type AdminKey } from './admin-strings.std.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('admin strings', () => {
  it('has every key in every language, none empty, with the same placeholders as English', () => {
    const keys = Object.keys(adminMessages.en) as AdminKey[];
    for (const locale of LOCALES) {
      expect(Object.keys(adminMessages[locale]).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        expect(adminMessages[locale][key].trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(adminMessages[locale][key]), `${locale} ${key}`).toEqual(placeholders(adminMessages.en[key]));
      }
    }
  });

  it('names every reward attribute type and every voucher status', () => {
    for (const type of RewardAttributeType.options) expect(adminMessages.en).toHaveProperty(`type.${type}`);
    for (const status of VoucherStatus.options) expect(adminMessages.en).toHaveProperty(`status.${status}`);
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    expect(adminText('nl', 'pager.where', { page: 2, last: 4, total: 20 })).toBe('Pagina 2 van 4 · 20 vouchers');
    expect(adminText('en', 'voucher.title')).toBe('Voucher {code}');
  });
});
