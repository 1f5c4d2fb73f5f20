import { requireCredential } from './credentials.std.ts';
import { ApiError, httpError } from './errors.std.ts';
import { handlers, type Answer, type HandlerContext, type HandlerInput } from './handlers.std.ts';
import { parseInput } from './request-input.std.ts';
import { matchRoute, type RoutedOperationId } from './routes.std.ts';
import { platformErrors } from '../api/operations.std.ts';

/** One request below base_url, as the HTTP layer hands it over. */
export interface ApiRequest {
  method: string;
  /** The path below base_url, e.g. `/vouchers/find`. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The raw body text; empty when none was sent. */
  body: string;
}

/**
 * Routes, authenticates, validates and handles one API request, in that order. Throws ApiError
 * for every refusal; the caller writes it as the platform's error body.
 */
export function handleApiRequest(request: ApiRequest, context: HandlerContext): Answer {
  const segments = decodeSegments(request.path);
  const match = segments && matchRoute(request.method, segments);
  if (!match) throw httpError(404, `No route for ${request.method} ${request.path}.`);
  const { operation } = match;
  requireCredential(request.authorization, context.state.credentials, operation.auth);
  const input = parseInput(operation, {
    params: match.params,
    query: Object.fromEntries(request.query),
    body: operation.body ? parseJsonBody(request.body) : undefined,
  });
  const handler = handlers[operation.id] as (input: HandlerInput<RoutedOperationId>, context: HandlerContext) => Answer;
  return handler(input as HandlerInput<RoutedOperationId>, context);
}

function decodeSegments(path: string): string[] | null {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, platformErrors.invalidInput.code, 'The request body is not valid JSON.');
  }
}
