import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ErrorBody, operations, type AuthScheme, type Operation } from './operations.std.ts';

/**
 * Builds the OpenAPI 3.1 document of the platform API from the operations table, so the document
 * cannot drift from the schemas the client and sandbox use. Run as a script it rewrites
 * api/openapi.json; api/openapi.test.ts fails when that file is stale.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const openApiPath = fileURLToPath(new URL('./openapi.json', import.meta.url));

const securitySchemes: Record<AuthScheme, JsonObject> = {
  api_key: { type: 'http', scheme: 'bearer', description: 'The API key of the account' },
  access_token: { type: 'http', scheme: 'bearer', description: 'An OAuth access token' },
  personal_access_token: { type: 'http', scheme: 'bearer', description: 'A personal access token' },
};

/** Converts schemas as the wire carries them, collecting their named parts as components. */
function createSchemaConverter() {
  const components: Record<string, Json> = {};

  function convert(schema: z.ZodType): JsonObject {
    const { $schema: _dialect, $defs, ...json } = z.toJSONSchema(schema, { io: 'input' }) as JsonObject;
    for (const [id, definition] of Object.entries(($defs ?? {}) as JsonObject)) {
      const component = pointRefsAtComponents(definition);
      if (id in components && JSON.stringify(components[id]) !== JSON.stringify(component)) {
        throw new Error(`Two different schemas are named ${id}`);
      }
      components[id] = component;
    }
    return pointRefsAtComponents(json) as JsonObject;
  }

  return { convert, components };
}

function pointRefsAtComponents(json: Json): Json {
  if (Array.isArray(json)) return json.map(pointRefsAtComponents);
  if (json === null || typeof json !== 'object') return json;
  return Object.fromEntries(
    Object.entries(json).map(([key, value]) =>
      key === '$ref' && typeof value === 'string'
        ? [key, value.replace('#/$defs/', '#/components/schemas/')]
        : [key, pointRefsAtComponents(value)],
    ),
  );
}

function parameters(convert: (schema: z.ZodType) => JsonObject, where: 'path' | 'query', schema?: z.ZodObject): Json[] {
  if (!schema) return [];
  const { properties = {}, required = [] } = convert(schema) as { properties?: JsonObject; required?: string[] };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: required.includes(name),
    schema: property,
  }));
}

function jsonContent(schema: JsonObject): JsonObject {
  return { 'application/json': { schema } };
}

function operationObject(operation: Operation, convert: (schema: z.ZodType) => JsonObject): JsonObject {
  const object: JsonObject = {
    operationId: operation.id,
    summary: operation.summary,
    security: operation.auth.map((scheme) => ({ [scheme]: [] })),
    parameters: [
      ...parameters(convert, 'path', operation.params),
      ...parameters(convert, 'query', operation.query),
    ],
    responses: {
      // The spec does not give the success statuses.
      '2XX': { description: 'Success', content: jsonContent(convert(operation.response)) },
      default: {
        description: 'Platform error; 503 means the platform is in maintenance',
        content: jsonContent(convert(ErrorBody)),
      },
    },
  };
  if (operation.body) object.requestBody = { required: true, content: jsonContent(convert(operation.body)) };
  return object;
}

export function buildOpenApiDocument(): JsonObject {
  const { convert, components } = createSchemaConverter();
  const paths: Record<string, JsonObject> = {};
  for (const operation of Object.values(operations) as Operation[]) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = operationObject(operation, convert);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty platform API',
      version: '1.0.0',
      description: 'Generated from api/operations.std.ts by api/openapi.node.ts. Do not edit by hand.',
    },
    servers: [
      {
        url: '{base_url}',
        variables: { base_url: { default: 'https://api.piggy.eu/api/v3/oauth/clients', description: 'Root of the API' } },
      },
    ],
    paths,
    components: { schemas: components, securitySchemes },
  };
}

/** Objects with their keys sorted, so the file only changes when the document does. */
function sortKeys(json: Json): Json {
  if (Array.isArray(json)) return json.map(sortKeys);
  if (json === null || typeof json !== 'object') return json;
  return Object.fromEntries(
    Object.keys(json)
      .sort()
      .map((key) => [key, sortKeys(json[key]!)]),
  );
}

export function renderOpenApiJson(): string {
  return `${JSON.stringify(sortKeys(buildOpenApiDocument()), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(openApiPath, renderOpenApiJson());
}
