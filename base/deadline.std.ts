/**
 * Whether `work` settled (resolved or rejected) within `ms`: false once the time is up, however
 * long `work` goes on. Its outcome is not passed on, and a rejection after the time is up is
 * swallowed (no unhandled rejection). The timer keeps no process alive.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    (timer as { unref?: () => void }).unref?.();
  });
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Like AbortSignal.timeout: aborts with a TimeoutError after `ms`. Its timer is the global
 * setTimeout, so a test's fake clock drives it; the timer keeps no process alive.
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError')), ms);
  (timer as { unref?: () => void }).unref?.();
  return controller.signal;
}

/** Resolves after `ms`, on the global setTimeout (so on a test's fake clock). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
