import { mainMessages } from '../../common/main-messages.std.ts';
import { PRIVATE_STAND_IN, type Utterance } from '../../common/speech.std.ts';

/**
 * The words an utterance comes to. On a speaker each run of private parts becomes one stand-in
 * phrase: what the screen shows of a shopper is for their ears only. `withHint`: a stand-in is
 * followed, at the end, by how to hear what it stood for (a headset).
 */
export function spokenText({ locale, parts }: Utterance, privateAudio: boolean, withHint = false): string {
  const words: string[] = [];
  let hiding = false;
  for (const part of parts) {
    if (part.private && !privateAudio) {
      if (!hiding) words.push(PRIVATE_STAND_IN[locale]);
      hiding = true;
      continue;
    }
    hiding = false;
    words.push(part.text);
  }
  if (withHint && words.includes(PRIVATE_STAND_IN[locale])) words.push(mainMessages[locale]['speech.private_hint']);
  const cleaned = words.map((word) => saidMasked(onlyWhatIsShown(word), locale)).filter(Boolean);
  // Parts are sentences of their own, with a pause between them, unless one already ends in punctuation.
  return cleaned.reduce((said, word) => (said === '' ? word : /[.,:;!?…]$/.test(said) ? `${said} ${word}` : `${said}. ${word}`), '');
}

/** The dots that hide part of a text said as such: "s•••@example.nl" is not "s at example dot nl". */
function saidMasked(text: string, locale: Utterance['locale']): string {
  return text.replace(/\s*•+\s*/g, ` ${mainMessages[locale]['speech.masked']} `).trim();
}

/**
 * Text (a voucher's name from the platform) as espeak-ng can only read it aloud: control characters
 * could steer it (\u0001 starts an embedded command) and `[[` opens its phoneme input, so a name
 * could make it say what the screen does not show. Brackets become parentheses, said the same
 * (not at all); with no `[` left no character espeak-ng skips can join two. It reads no SSML: the
 * kiosk never passes -m.
 */
function onlyWhatIsShown(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .trim();
}
