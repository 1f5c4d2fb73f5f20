import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, LOCALES } from '../../common/config-schema.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { IDLE_WARNING_SECONDS } from '../visit/idle-policy.std.ts';
import { fieldHelp } from './wording.svelte';

beforeAll(() => i18n.loadCatalogue('console'));
afterEach(() => i18n.use('en'));

describe('fieldHelp', () => {
  it.each(LOCALES)('speaks of the numbers the kiosk uses, in %s (#34 §2)', (locale) => {
    i18n.use(locale);
    const { idle } = defaultConfig();
    expect(fieldHelp('idle.timeoutSeconds')).toContain(` ${IDLE_WARNING_SECONDS} `);
    expect(fieldHelp('idle.afterRedeemSeconds')).toContain(`${idle.afterRedeemSeconds})`);
    expect(fieldHelp('idle.proofSeconds')).toContain(`${idle.proofSeconds})`);
    expect(fieldHelp('brand.name')).toBeNull();
  });
});
