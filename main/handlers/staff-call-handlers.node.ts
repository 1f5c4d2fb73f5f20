import { mainMessages } from '../../common/main-messages.std.ts';
import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SpeechService } from '../speech/speech-service.node.ts';

/**
 * A shopper's call for staff (#33 §11): it stands in the kiosk's activity (and so in the fleet's
 * health, for Home Assistant to notify), goes into the log, and is said aloud at the kiosk, speech
 * mode or not: the shopper hears it is done, and staff nearby hear the call.
 */
export function createStaffCallHandlers({ activity, speech, logger }: { activity: KioskActivity; speech: SpeechService; logger: Logger }): Pick<CallHandlers, 'callStaff'> {
  return {
    callStaff: async ({ reason, locale }, from) => {
      // A screen cannot make the kiosk call out again and again for one problem.
      if (!activity.callStaff(from, reason)) return null;
      logger.warn('a shopper called staff', { event: 'staff.called', reason });
      void speech.say({ locale, parts: [{ text: mainMessages[locale]['staff.callout'] }] });
      return null;
    },
  };
}
