import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiPath, renderOpenApiJson } from './openapi.node.ts';

interface OperationObject {
  operationId: string;
  security: Record<string, string[]>[];
  requestBody?: unknown;
  parameters: { name: string; in: string; required: boolean }[];
}

const committed = readFileSync(openApiPath, 'utf8');
const document = JSON.parse(committed) as {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
const operationObjects = Object.values(document.paths).flatMap((methods) => Object.values(methods));
const byId = new Map(operationObjects.map((operation) => [operation.operationId, operation]));

describe('api/openapi.json', () => {
  it('is what api/openapi.node.ts builds now (run `npm run openapi` after changing the schemas)', () => {
    expect(committed).toBe(renderOpenApiJson());
  });

  it('is OpenAPI 3.1 with 23 operations', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(byId.size).toBe(23);
  });

  it('names the credentials of the Authentication table', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'access_token',
      'api_key',
      'personal_access_token',
    ]);
    for (const operation of operationObjects) {
      const schemes = operation.security.map((requirement) => Object.keys(requirement).join());
      if (operation.operationId.includes('PortalSession')) expect(schemes).toEqual(['access_token', 'api_key']);
      else if (operation.operationId === 'checkVoucherValidity') expect(schemes).toEqual(['personal_access_token']);
      else expect(schemes, operation.operationId).toEqual(['api_key']);
    }
  });

  it('keeps the versioned validate path, with a body and the voucher uuid in the path', () => {
    const validate = document.paths['/v3/oauth/clients/vouchers/{voucher_uuid}/validate']?.post;
    expect(validate?.operationId).toBe('checkVoucherValidity');
    expect(validate?.requestBody).toBeDefined();
    expect(validate?.parameters).toEqual([expect.objectContaining({ name: 'voucher_uuid', in: 'path', required: true })]);
  });

  it('lists query parameters with their required flag', () => {
    expect(byId.get('findVoucher')?.parameters).toEqual([
      expect.objectContaining({ name: 'code', in: 'query', required: true }),
    ]);
    const list = byId.get('listVouchers')?.parameters ?? [];
    expect(list.map((parameter) => parameter.name).sort()).toEqual(
      ['contact_uuid', 'limit', 'page', 'promotion_uuid', 'status'].sort(),
    );
    expect(list.every((parameter) => parameter.in === 'query' && !parameter.required)).toBe(true);
  });

  it('names the shared shapes as components', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Voucher', 'PortalSession', 'VoucherLock', 'Pagination', 'RewardAttribute', 'ErrorBody']),
    );
    expect(committed).not.toContain('#/$defs/');
  });
});
