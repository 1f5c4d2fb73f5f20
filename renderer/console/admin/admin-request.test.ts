import { beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../../common/contract.std.ts';
import { i18n } from '../../i18n/i18n.svelte';
import { AdminRequest } from './admin-request.svelte';
import type { Checked } from './problems.std.ts';

const refused: BridgeResult<never> = { ok: false, error: { code: 'conflict', message: 'A voucher with this code already exists.', platformCode: 80003 } };
const wrongCode: Checked<string> = { ok: false, problem: { summary: 'Check the marked fields.', fields: { code: ['Required.'] } } };

// The console loads the admin tabs' messages before it shows them.
beforeAll(() => i18n.loadCatalogue('admin'));

describe('AdminRequest', () => {
  it('hands over the answer and is ready for the next call', async () => {
    const request = new AdminRequest();
    const done: string[] = [];
    const sending = request.send(async () => ({ ok: true, value: 'listed' }), (value) => done.push(value));
    expect(request.busy).toBe(true);
    await sending;
    expect(done).toEqual(['listed']);
    expect(request).toMatchObject({ busy: false, problem: null });
  });

  it('keeps a refusal as the problem, under the field it is about', async () => {
    const request = new AdminRequest({ fieldOfCode: { 80003: 'code' } });
    await request.send(async () => refused, () => expect.unreachable());
    expect(request.busy).toBe(false);
    expect(request.problemsOf('code')).toEqual(['A voucher with this code already exists.']);
    expect(request.problemsOf('promotion_uuid')).toEqual([]);
  });

  it('sends nothing while the check fails, and shows why', async () => {
    const request = new AdminRequest();
    await request.submit(wrongCode, () => expect.unreachable(), () => expect.unreachable());
    expect(request).toMatchObject({ busy: false, problem: wrongCode.problem });
  });

  it('clears the last problem when it sends again', async () => {
    const request = new AdminRequest();
    await request.submit(wrongCode, () => expect.unreachable(), () => {});
    await request.submit({ ok: true, value: 'CODE-1' }, async (code) => ({ ok: true, value: code }), () => {});
    expect(request.problem).toBeNull();
  });

  it('a create form’s stays busy once it succeeded (no second send), not after a refusal', async () => {
    const created = new AdminRequest({ sendsOnce: true });
    await created.send(async () => ({ ok: true, value: 'created' }), () => {});
    expect(created.busy).toBe(true);
    const refusedOnce = new AdminRequest({ sendsOnce: true });
    await refusedOnce.send(async () => refused, () => {});
    expect(refusedOnce.busy).toBe(false);
  });
});
