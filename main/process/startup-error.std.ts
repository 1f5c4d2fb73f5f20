import { EXIT } from './exit-codes.std.ts';

/**
 * A start that cannot go on for a reason an admin can fix. Its message is one line, written for
 * them, and never quotes a file's content (the demo state holds credentials).
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';

  constructor(
    message: string,
    readonly exitCode: number = EXIT.config,
  ) {
    super(message);
  }
}

/** The line a host prints and the code it exits with; null for any other error (a bug: let it crash loudly). */
export function startupFailure(error: unknown): { line: string; exitCode: number } | null {
  if (!(error instanceof StartupError)) return null;
  return { line: `Loyalty Kiosk cannot start: ${error.message}\n`, exitCode: error.exitCode };
}
