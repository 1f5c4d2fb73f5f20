import { describe, expect, it } from 'vitest';
import { contractSuite, expectInvalid, lastStatus } from './contract.test-support.ts';

/** List and Create Reward Attributes through the client. */

const suite = contractSuite();

const create = (input: object) => suite.loose.createRewardAttribute(input);
const listed = async (name: string) =>
  (await suite.client.listRewardAttributes()).data.find((attribute) => attribute.name === name);

describe('Reward Attributes', () => {
  it('lists attributes with 0/1 flags, a fieldType and option values as strings', async () => {
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
    expect(lastStatus()).toBe(200);
    expect(await listed('external_sku')).toMatchObject({ fieldType: 'text', isServiceDefined: 1, isHardReadOnly: 1 });
    expect(await listed('calories')).toMatchObject({ fieldType: 'default', options: [] });
  });

  it('creates an attribute, answering it unwrapped with data_type; label defaults to the name', async () => {
    const options = [{ label: 'Mild', value: 1 }, { label: 'Heet', value: 'hot' }];
    const answer = await suite.client.createRewardAttribute({ name: 'spiciness', type: 'select', options });
    expect(lastStatus()).toBe(201);
    expect(answer).toEqual({
      name: 'spiciness',
      label: 'spiciness',
      description: '',
      data_type: 'select',
      placeholder: null,
      options,
    });
    expect((await listed('spiciness'))?.options).toEqual([{ label: 'Mild', value: '1' }, { label: 'Heet', value: 'hot' }]);
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
    const answer = await create({ name, type, label: `Label ${type}`, description: 'Beschrijving', placeholder: 'bv. 12' });
    expect(answer).toMatchObject({ name, label: `Label ${type}`, description: 'Beschrijving', placeholder: 'bv. 12', data_type: type });
    expect((await listed(name))?.fieldType).toBe(fieldType);
  });

  it('gives multi_select the fieldType select', async () => {
    await suite.client.createRewardAttribute({ name: 'toppings', type: 'multi_select', options: [{ label: 'Kaas', value: 'cheese' }] });
    expect((await listed('toppings'))?.fieldType).toBe('select');
  });

  it('refuses a taken name, an unknown type and misplaced or missing options', async () => {
    await expectInvalid(create({ name: 'size', type: 'text' }), 'name');
    await expectInvalid(create({ type: 'text' }), 'name');
    await expectInvalid(create({ name: 'shape', type: 'shape' }), 'type');
    await expectInvalid(create({ name: 'flavour', type: 'select' }), 'options');
    await expectInvalid(create({ name: 'flavour', type: 'multi_select', options: [] }), 'options');
    await expectInvalid(create({ name: 'flavour', type: 'text', options: [{ label: 'A', value: 'a' }] }), 'options');
    expect(await listed('flavour')).toBeUndefined();
  });
});
