import type { ConnectionCheck } from '../../common/manager-views.std.ts';
import type { MessageKey } from '../i18n/message-types.std.ts';

type CheckItem = ConnectionCheck['checks'][number];

/**
 * What a manager can do about one failed check of the connection test, in words: the platform's
 * own detail ("not_found: Shop not found.") stays beside it for IT.
 */
export function checkAdvice(item: CheckItem): MessageKey | null {
  if (item.ok || !item.problem) return null;
  switch (item.problem) {
    case 'insecure':
      return 'console.advice.https';
    case 'auth':
      return 'console.advice.auth';
    case 'not_found':
    case 'validation':
      // The shop is the only thing the test names that the platform may not know.
      return item.name === 'shop' ? 'console.advice.shop' : 'console.advice.address';
    case 'network':
      return 'console.advice.network';
    case 'timeout':
      return 'console.advice.timeout';
    default:
      return 'console.advice.platform';
  }
}
