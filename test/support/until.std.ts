/**
 * Waits until `condition` holds, looking every `pollMs`: a test waits for state, never for a fixed
 * time. Throws `failure` once `timeoutMs` has passed without it.
 */
export async function until(condition: () => boolean, { timeoutMs = 8_000, pollMs = 20, failure = 'condition not met in time' } = {}): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
