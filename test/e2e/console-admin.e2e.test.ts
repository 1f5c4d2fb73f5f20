import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { RewardAttributeType } from '../../api/reward-attributes.std.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { openConsoleFirstRun, shootBothSizes } from '../support/manager-console.node.ts';
import { expectAccessible, recordBridgeCalls, startKiosk, tapOnScreenKeyboard, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

/**
 * The console's voucher and reward-attribute tabs, driven through the real console of a fresh demo
 * kiosk (corner gesture, first-run wizard, PIN), every outcome checked in the kiosk's sandbox.
 * The browser runs in Amsterdam time, so local-time entry and UTC on the platform differ.
 */
describe('manager console: vouchers and reward attributes', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let page: Page;
  /** Bridge calls the page made, by name, in order. */
  const calls: string[] = [];
  const CODE = 'E2E-SPRING-01';

  beforeAll(async () => {
    // Reward attributes are account-wide: IT opens their tab on this kiosk (#34 §2).
    kiosk = await startKiosk({ 'console.platformAdmin': true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true, timezoneId: 'Europe/Amsterdam' });
    recordBridgeCalls(page, calls);
    await page.goto(kiosk.host.url);
    await page.getByTestId('attract-screen').waitFor();
    await openConsoleFirstRun(page, kiosk.dataDir);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  const vouchersTab = () => page.getByTestId('vouchers-tab');
  const pagerSays = (text: string) => page.getByTestId('pager-where').filter({ hasText: text }).waitFor();
  const listedCodes = () =>
    vouchersTab()
      .locator('[data-testid="voucher-table"] tbody tr')
      .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.code));

  it('lists vouchers with a status filter, a page size and pages, as the platform has them', async () => {
    await page.getByTestId('tab-vouchers').click();
    await vouchersTab().getByTestId('voucher-table').waitFor();
    await expectTouchFriendly(vouchersTab());
    await expectAccessible(page, 'vouchers tab');
    await shootBothSizes(page, 'console-vouchers', () => expectScrollsInside(vouchersTab().getByTestId('voucher-table')));

    await vouchersTab().getByLabel('Status', { exact: true }).selectOption('ACTIVE');
    await vouchersTab().getByLabel('Per page', { exact: true }).selectOption('10');
    await vouchersTab().getByTestId('voucher-show').click();
    const first = await kiosk.platform.listVouchers({ status: 'ACTIVE', limit: 10, page: 1 });
    expect(first.meta.last_page).toBeGreaterThan(1);
    await pagerSays(`Page 1 of ${first.meta.last_page} · ${first.meta.total} vouchers`);
    expect(await listedCodes()).toEqual(first.data.map((voucher) => voucher.code));

    await vouchersTab().getByRole('button', { name: 'Next' }).click();
    const second = await kiosk.platform.listVouchers({ status: 'ACTIVE', limit: 10, page: 2 });
    await pagerSays(`Page 2 of ${first.meta.last_page}`);
    expect(await listedCodes()).toEqual(second.data.map((voucher) => voucher.code));
    expect(second.data.every((voucher) => voucher.status === 'ACTIVE')).toBe(true);
    await vouchersTab().getByRole('button', { name: 'Previous' }).click();
    await pagerSays(`Page 1 of ${first.meta.last_page}`);

    // Promotion and contact, picked among those the list showed.
    const sanne = kiosk.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl')!;
    const coffee = (await kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data.promotion;
    await vouchersTab().getByLabel('Status', { exact: true }).selectOption('');
    await vouchersTab().getByLabel('Promotion', { exact: true }).selectOption({ label: coffee.name });
    // On a shop-floor screen the list and the picker show e-mails masked (#34 §2); the voucher opened shows it whole.
    const listed = await vouchersTab().getByTestId('voucher-table').textContent();
    expect(listed).toMatch(/\w•••@example\.nl/);
    expect(listed).not.toMatch(/[\w.+-]{2,}@/);
    await vouchersTab().getByLabel('Contact', { exact: true }).selectOption({ label: `s•••@example.nl (${sanne.uuid.slice(0, 8)})` });
    await vouchersTab().getByTestId('voucher-show').click();
    const theirs = await kiosk.platform.listVouchers({ promotion_uuid: coffee.uuid, contact_uuid: sanne.uuid, limit: 10 });
    expect(theirs.meta.total).toBeGreaterThan(0);
    await pagerSays(`Page 1 of 1 · ${theirs.meta.total} vouchers`);
    expect(await listedCodes()).toEqual(theirs.data.map((voucher) => voucher.code));
  });

  it('finds a voucher by its code', async () => {
    // Enter finds, as it does after a hand scanner's code.
    await type(vouchersTab().getByLabel('Find by code'), 'NO-SUCH-CODE');
    await expect(shownText(vouchersTab().getByTestId('admin-problem'))).resolves.toMatch(/^Not found: /);
    await type(vouchersTab().getByLabel('Find by code'), 'KOFFIE24');
    const detail = page.getByTestId('voucher-detail');
    await detail.getByRole('heading', { name: 'Voucher KOFFIE24' }).waitFor();
    const found = (await kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data;
    await detail.locator(`dl[data-status="${found.status}"]`).waitFor();
    await expect(detail.textContent()).resolves.toContain(found.contact!.email);
    await expect(detail.textContent()).resolves.toContain(`${found.times_redeemed} of ${found.total_redemptions_allowed} used`);
    await detail.getByRole('button', { name: 'Back' }).click();
  });

  it('creates a voucher with a code, a contact, local dates and a custom attribute; the platform has it in UTC', async () => {
    const sanne = kiosk.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl')!;
    const promotion = (await kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data.promotion;
    await vouchersTab().getByTestId('voucher-new').click();
    const form = page.getByTestId('voucher-create');
    // The promotion as seen in the list; the contact typed as a uuid.
    await form.getByLabel('Promotion', { exact: true }).selectOption({ label: promotion.name });
    await type(form.getByLabel('Code (empty: one is generated)'), CODE);
    await form.getByLabel('Contact (optional)', { exact: true }).selectOption({ label: 'Other: type the uuid' });
    await type(form.getByLabel('Contact uuid'), sanne.uuid);
    await type(form.getByLabel('Total redemptions allowed (optional)'), '3');
    // Winter and summer time: 09:30 CET is 08:30 UTC, 18:00 CEST is 16:00 UTC.
    await form.getByLabel('Activation (optional)').fill('2025-01-15T09:30');
    await form.getByLabel('Expiration (optional)').fill('2030-06-30T18:00');
    await expect(form.textContent()).resolves.toContain('Local time (Europe/Amsterdam)');
    await form.getByRole('button', { name: 'Add attribute' }).click();
    await type(form.getByLabel('Name 1'), 'campaign');
    await type(form.getByLabel('Value 1'), 'spring');
    await expectTouchFriendly(form);
    await expectAccessible(page, 'new voucher form');
    await shootBothSizes(page, 'console-voucher-create');
    await form.getByTestId('voucher-create-submit').click();

    const detail = page.getByTestId('voucher-detail');
    await detail.getByText(`Voucher ${CODE} is created.`).waitFor();
    const created = (await kiosk.platform.findVoucher({ code: CODE })).data;
    expect(created).toMatchObject({
      status: 'ACTIVE',
      activation_date: '2025-01-15T08:30:00+00:00',
      expiration_date: '2030-06-30T16:00:00+00:00',
      total_redemptions_allowed: 3,
      attributes: { campaign: 'spring' },
      contact: { uuid: sanne.uuid },
      promotion: { uuid: promotion.uuid },
    });
    // Shown back in local time.
    await expect(shownText(detail.getByTestId('voucher-activation'))).resolves.toBe('Jan 15, 2025, 9:30 AM');
    await expect(shownText(detail.getByTestId('voucher-expiration'))).resolves.toBe('Jun 30, 2030, 6:00 PM');
    await shootBothSizes(page, 'console-voucher-detail');
  });

  it('deactivates and activates the voucher, and moves its expiration only while that is allowed', async () => {
    const detail = page.getByTestId('voucher-detail');
    const expirationField = detail.getByLabel('New expiration (local time)');
    await detail.getByRole('button', { name: 'Deactivate' }).click();
    await detail.getByText('The voucher is deactivated.').waitFor();
    expect((await kiosk.platform.findVoucher({ code: CODE })).data.status).toBe('DEACTIVATED');
    expect(await expirationField.count()).toBe(0);

    await detail.getByRole('button', { name: 'Activate' }).click();
    await detail.getByText('The voucher is active again.').waitFor();
    expect((await kiosk.platform.findVoucher({ code: CODE })).data.status).toBe('ACTIVE');

    await expect(expirationField.inputValue()).resolves.toBe('2030-06-30T18:00');
    await expirationField.fill('2031-01-15T12:00');
    await detail.getByRole('button', { name: 'Change expiration' }).click();
    await detail.getByText('The expiration date is changed.').waitFor();
    expect((await kiosk.platform.findVoucher({ code: CODE })).data).toMatchObject({ status: 'ACTIVE', expiration_date: '2031-01-15T11:00:00+00:00' });
    await detail.getByRole('button', { name: 'Back' }).click();
  });

  it('shows platform refusals plainly, under the field they are about', async () => {
    const promotion = (await kiosk.platform.findVoucher({ code: CODE })).data.promotion;
    await vouchersTab().getByTestId('voucher-new').click();
    const form = page.getByTestId('voucher-create');
    await form.getByLabel('Promotion', { exact: true }).selectOption({ label: promotion.name });
    await type(form.getByLabel('Code (empty: one is generated)'), CODE);
    await form.getByTestId('voucher-create-submit').click();
    await form.getByText('A voucher with this code already exists.').waitFor();
    await expect(problemsUnder(form, 'Code (empty: one is generated)')).resolves.toEqual(['A voucher with this code already exists.']);
    const all = await kiosk.platform.listVouchers({ limit: 500 });
    expect(all.data.filter((voucher) => voucher.code === CODE)).toHaveLength(1);

    // A field error the platform names itself.
    await type(form.getByLabel('Code (empty: one is generated)'), 'E2E-BACKWARDS');
    await form.getByLabel('Activation (optional)').fill('2030-06-30T18:00');
    await form.getByLabel('Expiration (optional)').fill('2030-03-01T09:30');
    await form.getByTestId('voucher-create-submit').click();
    await form.getByText('The expiration_date must be after the activation_date.').waitFor();
    await expect(problemsUnder(form, 'Expiration (optional)')).resolves.toEqual(['The expiration_date must be after the activation_date.']);
    await expect(shownText(form.getByTestId('admin-problem'))).resolves.toBe('Check the marked fields.');
    await shootBothSizes(page, 'console-voucher-refused');
    await expect(kiosk.platform.findVoucher({ code: 'E2E-BACKWARDS' })).rejects.toMatchObject({ kind: 'not_found' });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('creates a voucher with the code left empty: the platform generates one', async () => {
    const promotion = (await kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data.promotion;
    const before = (await kiosk.platform.listVouchers({ limit: 0 })).meta.total;
    await vouchersTab().getByTestId('voucher-new').click();
    const form = page.getByTestId('voucher-create');
    await form.getByLabel('Promotion', { exact: true }).selectOption({ label: promotion.name });
    await expect(form.getByLabel('Code (empty: one is generated)').inputValue()).resolves.toBe('');
    await form.getByTestId('voucher-create-submit').click();

    const detail = page.getByTestId('voucher-detail');
    const heading = await detail.getByRole('heading', { name: /^Voucher / }).textContent();
    const code = heading!.replace(/^Voucher /, '').trim();
    expect(code).toMatch(/^\S{4,}$/);
    await detail.getByText(`Voucher ${code} is created.`).waitFor();
    expect((await kiosk.platform.findVoucher({ code })).data).toMatchObject({ code, status: 'ACTIVE', promotion: { uuid: promotion.uuid } });
    expect((await kiosk.platform.listVouchers({ limit: 0 })).meta.total).toBe(before + 1);
    await detail.getByRole('button', { name: 'Back' }).click();
  });

  it('refuses a select without options before sending anything', async () => {
    await page.getByTestId('tab-rewards').click();
    const tab = page.getByTestId('reward-attributes-tab');
    await tab.getByTestId('reward-attribute-table').waitFor();
    await tab.getByTestId('reward-attribute-new').click();
    const form = page.getByTestId('reward-attribute-create');
    await type(form.getByLabel('Name (internal, unique)'), 'e2e_no_options');
    await pickType(form, 'select');
    const sent = calls.length;
    await form.getByTestId('reward-attribute-submit').click();
    await form.getByText('Add at least one option.').waitFor();
    expect(calls.slice(sent)).not.toContain('adminCreateRewardAttribute');
    await expectTouchFriendly(form);
    await expectAccessible(page, 'new reward attribute form');
    await shootBothSizes(page, 'console-reward-attribute-refused');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const names = (await kiosk.platform.listRewardAttributes()).data.map((attribute) => attribute.name);
    expect(names).not.toContain('e2e_no_options');
  });

  it('creates a reward attribute of every one of the 21 types', async () => {
    const tab = page.getByTestId('reward-attributes-tab');
    const form = page.getByTestId('reward-attribute-create');
    for (const [index, type_] of RewardAttributeType.options.entries()) {
      await tab.getByTestId('reward-attribute-new').click();
      const name = form.getByLabel('Name (internal, unique)');
      if (index === 0) {
        // Once on the panel's own keyboard, the way a manager without a keyboard types.
        await name.click();
        await tapOnScreenKeyboard(page, `e2e_${type_}`, 'email');
        await page.getByTestId('on-screen-keyboard').getByRole('button', { name: 'Done' }).click();
      } else {
        await type(name, `e2e_${type_}`);
      }
      await type(form.getByLabel('Label (optional)'), `E2E ${type_}`);
      await pickType(form, type_);
      if (type_ === 'select' || type_ === 'multi_select') {
        for (const [row, [label, value]] of [['Small', 'small'], ['Large', 'large']].entries()) {
          await form.getByRole('button', { name: 'Add option' }).click();
          await type(form.getByLabel(`Label ${row + 1}`, { exact: true }), label!);
          await type(form.getByLabel(`Value ${row + 1}`, { exact: true }), value!);
        }
      }
      await form.getByTestId('reward-attribute-submit').click();
      // It reaches every store: asked once more, and nothing is sent before.
      if (index === 0) {
        await form.getByRole('alertdialog').getByText(`“e2e_${type_}” is added for every store of this account, not only this one`).waitFor();
        expect(calls.at(-1)).not.toBe('adminCreateRewardAttribute');
        // The question has the focus, on its safe answer.
        await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="alertdialog"]') !== null && document.activeElement?.textContent)).toBe('Cancel');
        await shootBothSizes(page, 'console-reward-attribute-chain-wide');
      }
      await form.getByTestId('reward-attribute-submit-confirm').click();
      await tab.getByText(`Reward attribute e2e_${type_} is created.`).waitFor();
      await tab.locator(`tr[data-name="e2e_${type_}"][data-type="${type_}"]`).waitFor();
    }

    const listed = (await kiosk.platform.listRewardAttributes()).data.filter((attribute) => attribute.name.startsWith('e2e_'));
    expect(listed.map(({ name, type }) => [name, type])).toEqual(RewardAttributeType.options.map((type_) => [`e2e_${type_}`, type_]));
    for (const name of ['e2e_select', 'e2e_multi_select']) {
      expect(listed.find((attribute) => attribute.name === name)!.options).toEqual([
        { label: 'Small', value: 'small' },
        { label: 'Large', value: 'large' },
      ]);
    }

    await expectTouchFriendly(tab);
    await expectAccessible(page, 'reward attributes tab');
    await shootBothSizes(page, 'console-reward-attributes', () => expectScrollsInside(tab.getByTestId('reward-attribute-table')));
  });

  it('shows the platform\'s refusal of a name already taken under the Name field', async () => {
    const tab = page.getByTestId('reward-attributes-tab');
    const form = page.getByTestId('reward-attribute-create');
    const count = async () => (await kiosk.platform.listRewardAttributes()).data.filter((attribute) => attribute.name === 'e2e_text').length;
    expect(await count()).toBe(1);
    await tab.getByTestId('reward-attribute-new').click();
    await type(form.getByLabel('Name (internal, unique)'), 'e2e_text');
    await pickType(form, 'text');
    const sent = calls.length;
    await form.getByTestId('reward-attribute-submit').click();
    await form.getByTestId('reward-attribute-submit-confirm').click();
    await form.getByText('The name has already been taken.').waitFor();
    // The form sent it (the check is the platform's), and shows the answer at the field.
    expect(calls.slice(sent)).toContain('adminCreateRewardAttribute');
    await expect(problemsUnder(form, 'Name (internal, unique)')).resolves.toEqual(['The name has already been taken.']);
    expect(await count()).toBe(1);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
});

/** A physical keyboard: fill, then Enter, which closes the on-screen keyboard as Done does. */
async function type(field: Locator, text: string) {
  await field.fill(text);
  await field.press('Enter');
}

/** The type tiles: the radio is the tile's label, which a finger taps. */
async function pickType(form: Locator, type_: string) {
  await form.getByTestId('type-picker').locator('label', { has: form.page().locator(`input[value="${type_}"]`) }).click();
  await expect.poll(() => form.locator(`input[value="${type_}"]`).isChecked()).toBe(true);
}

/** Text as read, trimmed: Intl puts narrow no-break spaces in times ("9:30 AM"). */
async function shownText(element: Locator): Promise<string | null> {
  return (await element.textContent())?.replace(/\s+/g, ' ').trim() ?? null;
}

/** The messages shown under the field labelled `label`. */
function problemsUnder(form: Locator, label: string): Promise<string[]> {
  return form
    .locator('.admin-field', { has: form.page().getByLabel(label, { exact: true }) })
    .last()
    .locator('.field-problem')
    .allTextContents()
    .then((texts) => texts.map((text) => text.replace(/^⚠\s*/, '').trim()));
}

/** Every control a finger uses is at least 56 px both ways; a table row is one target as a whole. */
async function expectTouchFriendly(scope: Locator) {
  const small = await scope.evaluate((root) => {
    const tooSmall: string[] = [];
    const targets = root.querySelectorAll<HTMLElement>('button, select, input:not([type="radio"]), label:has(> input[type="radio"]), tbody tr');
    for (const target of targets) {
      // A row's code button covers its row (::after); the row is measured instead.
      if (target.matches('tbody th button')) continue;
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.height < 56 || box.width < 56) tooSmall.push(`${target.tagName} "${target.textContent?.trim().slice(0, 30)}" ${box.width}x${box.height}`);
    }
    return tooSmall;
  });
  expect(small).toEqual([]);
}

/** A long list scrolls in its own box inside the tab; the page itself stays put. */
async function expectScrollsInside(table: Locator) {
  const box = await table.evaluate((element) => {
    const scroller = element.parentElement!;
    return { overflowY: getComputedStyle(scroller).overflowY, scrollable: scroller.scrollHeight > scroller.clientHeight, pageScrolls: document.scrollingElement!.scrollHeight > window.innerHeight };
  });
  expect(box).toEqual({ overflowY: 'auto', scrollable: true, pageScrolls: false });
}
