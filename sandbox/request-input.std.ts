import type { z } from 'zod';
import type { OperationSpec } from '../api/operations.std.ts';
import { invalidInput, type FieldErrors } from './errors.std.ts';

export interface RawInput {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Validates path parameters, query and body with the operation's schemas, all at once, so a
 * 400 lists every problem by field. Parts without a schema are ignored. For an operation that
 * takes a body but no query, query values fill in fields the body leaves out (as the platform's
 * Laravel input does); that is how Check Voucher Validity accepts its fields in either place.
 */
export function parseInput(operation: OperationSpec, raw: RawInput): ParsedInput {
  const body = operation.body && !operation.query ? withQueryFallback(raw.body, raw.query) : raw.body;
  // No prototype: a field may be called `__proto__`.
  const errors: FieldErrors = Object.create(null);
  const part = (schema: z.ZodObject | undefined, value: unknown, where: string) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) addIssue(errors, issue, value, where);
    return undefined;
  };
  const parsed = {
    params: part(operation.params, raw.params, 'params'),
    query: part(operation.query, raw.query, 'query'),
    body: part(operation.body, body, 'body'),
  };
  if (Object.keys(errors).length > 0) throw invalidInput(errors);
  return parsed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withQueryFallback(body: unknown, query: Record<string, string>): unknown {
  return isPlainObject(body) ? { ...query, ...body } : body;
}

function addIssue(errors: FieldErrors, issue: z.core.$ZodIssue, value: unknown, where: string) {
  if (issue.code === 'unrecognized_keys') {
    for (const key of issue.keys) push(errors, [...issue.path, key].join('.'), `The ${key} field is not allowed.`);
    return;
  }
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  const missing = issue.path.length > 0 && valueAt(value, issue.path) === undefined;
  push(errors, field, missing ? `The ${field} field is required.` : `The ${field} field is invalid: ${issue.message}`);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function push(errors: FieldErrors, field: string, message: string) {
  (errors[field] ??= []).push(message);
}
