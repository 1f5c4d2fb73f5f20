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
