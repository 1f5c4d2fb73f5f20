import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const create = (body: Record<string, unknown>) => sandbox.call('createRewardAttribute', { body });
const listed = async (name: string) =>
  (await sandbox.call('listRewardAttributes')).body.data.find((attribute: { name: string }) => attribute.name === name);

describe('Reward Attributes', () => {
  it('lists attributes with 0/1 flags, a fieldType and option values as strings', async () => {
    const reply = await sandbox.call('listRewardAttributes');
    expect(reply.status).toBe(200);
    expect(await listed('size')).toMatchObject({
      type: 'select',
      fieldType: 'select',
      options: [
        { label: 'Klein', value: '1' },
        { label: 'Middel', value: '2' },
        { label: 'Groot', value: '3' },
      ],
      isServiceDefined: 0,
    });
    expect(await listed('external_sku')).toMatchObject({ fieldType: 'text', isServiceDefined: 1, isHardReadOnly: 1 });
    expect(await listed('calories')).toMatchObject({ fieldType: 'default', options: [] });
  });

  it('creates an attribute, answering it unwrapped with data_type; label defaults to the name', async () => {
    const reply = await create({ name: 'spiciness', type: 'select', options: [{ label: 'Mild', value: 1 }, { label: 'Heet', value: 'hot' }] });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      name: 'spiciness',
      label: 'spiciness',
      description: '',
      data_type: 'select',
      placeholder: null,
      options: [{ label: 'Mild', value: 1 }, { label: 'Heet', value: 'hot' }],
    });
    expect((await listed('spiciness')).options).toEqual([{ label: 'Mild', value: '1' }, { label: 'Heet', value: 'hot' }]);
  });

  it.each([
    ['text', 'text'],
    ['long_text', 'text'],
    ['rich_text', 'text'],
    ['url', 'text'],
    ['email', 'text'],
    ['phone', 'text'],
    ['identifier', 'text'],
    ['license_plate', 'text'],
    ['date', 'default'],
    ['number', 'default'],
    ['boolean', 'default'],
    ['file_upload', 'default'],
  ])('gives a %s attribute the fieldType %s', async (type, fieldType) => {
    const name = `field_${type}`;
    const reply = await create({ name, type, label: `Label ${type}`, description: 'Beschrijving', placeholder: 'bv. 12' });
    expect(reply.body).toMatchObject({ name, label: `Label ${type}`, description: 'Beschrijving', placeholder: 'bv. 12', data_type: type });
    expect((await listed(name)).fieldType).toBe(fieldType);
  });

  it('gives multi_select the fieldType select', async () => {
    await create({ name: 'toppings', type: 'multi_select', options: [{ label: 'Kaas', value: 'cheese' }] });
    expect((await listed('toppings')).fieldType).toBe('select');
  });

  it('refuses a taken name, an unknown type and misplaced or missing options', async () => {
    expectError(await create({ name: 'size', type: 'text' }), 400, 1003, 'name');
    expectError(await create({ type: 'text' }), 400, 1003, 'name');
    expectError(await create({ name: 'shape', type: 'shape' }), 400, 1003, 'type');
    expectError(await create({ name: 'flavour', type: 'select' }), 400, 1003, 'options');
    expectError(await create({ name: 'flavour', type: 'multi_select', options: [] }), 400, 1003, 'options');
    expectError(await create({ name: 'flavour', type: 'text', options: [{ label: 'A', value: 'a' }] }), 400, 1003, 'options');
    expect(await listed('flavour')).toBeUndefined();
  });
});
