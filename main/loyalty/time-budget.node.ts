import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One time budget per shopper action (a lookup, a lock, a redeem, a release): every request the
 * action makes, and every retry of one, draws on the same budget, so a slow platform costs the
 * shopper at most the budget, not each request's own timeout times the attempts. The loyalty
 * client reads it; no call signature carries it.
 */

/** What a shopper waits at most for one action, across all of its requests and retries. */
export const SHOPPER_ACTION_BUDGET_MS = 12_000;

// The action's deadline, on performance.now()'s clock.
const deadlines = new AsyncLocalStorage<number>();

/** Runs `action` with `budgetMs` to spend; inside another budget, the earlier deadline holds. */
export function withTimeBudget<T>(budgetMs: number, action: () => Promise<T>): Promise<T> {
  const outer = deadlines.getStore() ?? Infinity;
  return deadlines.run(Math.min(outer, performance.now() + budgetMs), action);
}

/** Work that outlives the shopper's action (a background release) runs without its budget. */
export function outsideTimeBudget<T>(work: () => T): T {
  return deadlines.exit(work);
}

/** Milliseconds left of the current action's budget; Infinity outside any. */
export function remainingBudgetMs(): number {
  const deadline = deadlines.getStore();
  return deadline === undefined ? Infinity : Math.max(0, deadline - performance.now());
}
