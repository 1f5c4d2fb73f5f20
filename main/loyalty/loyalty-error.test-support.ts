import { expect } from 'vitest';
import { LoyaltyError } from './errors.std.ts';

/** The LoyaltyError a call fails with; fails the test when the call succeeds or throws anything else. */
export async function failure(call: Promise<unknown>): Promise<LoyaltyError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LoyaltyError);
  return error as LoyaltyError;
}
