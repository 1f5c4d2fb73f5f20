import type { InputOnlyHandlers } from '../bridge/dispatcher.std.ts';
import type { SpeechService } from '../speech/speech-service.node.ts';

/** The screen's speech calls, each handed to the speech feature. */
export function createSpeechHandlers(speech: SpeechService): InputOnlyHandlers<'speak' | 'stopSpeech' | 'endSpeech' | 'changeSpeech'> {
  return {
    speak: async (utterance) => {
      void speech.say(utterance);
      return null;
    },
    stopSpeech: async () => {
      speech.stop();
      return null;
    },
    endSpeech: async ({ farewell }) => {
      speech.endVisit();
      if (farewell) void speech.say(farewell);
      return null;
    },
    changeSpeech: async ({ setting, step }) => ({ percent: speech.change(setting, step) }),
  };
}
