import { z } from 'zod';
import { envelope, Timestamp } from '../api/common.std.ts';
import { operations, type OperationSpec } from '../api/operations.std.ts';

/**
 * Everything the API router serves: the platform's operations (api/operations.std.ts) plus the
 * sandbox's own, described the same way so one router, auth check and validator serve both.
 */
export const AdvanceClockBody = z.strictObject({ advance_seconds: z.number().int().min(1) });

/**
 * The next `requests` platform calls are answered 429 with `Retry-After: retry_after` (seconds, or
 * an HTTP date). With `paths`, only calls to those paths count, so a test can aim the limit at one
 * kind of call while a kiosk's other calls (its health probe) go through.
 */
export const RateLimitBody = z.strictObject({
  requests: z.number().int().min(0).max(1000),
  retry_after: z.union([z.number().int().min(0).max(86_400), z.string().min(1).max(64)]),
  paths: z.array(z.string().regex(/^\/[a-z0-9/_-]{1,200}$/)).min(1).max(20).optional(),
});

export const sandboxOperations = {
  advanceClock: {
    id: 'advanceClock',
    method: 'POST',
    path: '/_sandbox/clock',
    auth: ['api_key'],
    body: AdvanceClockBody,
    response: envelope(z.looseObject({ now: Timestamp })),
    summary: 'Move the sandbox clock forward (sandbox only)',
  },
  rateLimit: {
    id: 'rateLimit',
    method: 'POST',
    path: '/_sandbox/rate-limit',
    auth: ['api_key'],
    body: RateLimitBody,
    response: envelope(z.looseObject({ requests: z.number().int() })),
    summary: 'Answer the next platform calls 429 with Retry-After (sandbox only)',
  },
} as const satisfies Record<string, OperationSpec & { id: string }>;

export const routedOperations = { ...operations, ...sandboxOperations };
export type RoutedOperations = typeof routedOperations;
export type RoutedOperationId = keyof RoutedOperations;

export type RoutedOperation = OperationSpec & { id: RoutedOperationId };

export interface RouteMatch {
  operation: RoutedOperation;
  params: Record<string, string>;
}

interface Route {
  operation: RoutedOperation;
  segments: string[];
  literalCount: number;
}

const routes: Route[] = Object.values<RoutedOperation>(routedOperations).map((operation) => {
  const segments = operation.path.split('/').slice(1);
  return { operation, segments, literalCount: segments.filter((segment) => !isPlaceholder(segment)).length };
});

function isPlaceholder(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/**
 * The operation for `method` and the decoded path segments (below base_url), or null: a known path
 * with another method is an unknown route too. Literal segments beat placeholders, so
 * `/vouchers/find` is Find Voucher and not a voucher uuid.
 */
export function matchRoute(method: string, segments: readonly string[]): RouteMatch | null {
  const found = routes
    .filter((route) => route.operation.method === method)
    .map((route) => ({ route, params: matchSegments(route.segments, segments) }))
    .filter((candidate): candidate is { route: Route; params: Record<string, string> } => candidate.params !== null)
    .sort((a, b) => b.route.literalCount - a.route.literalCount)[0];
  return found ? { operation: found.route.operation, params: found.params } : null;
}

function matchSegments(template: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (template.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const value = actual[index] ?? '';
    if (isPlaceholder(part)) params[part.slice(1, -1)] = value;
    else if (part !== value) return null;
  }
  return params;
}
