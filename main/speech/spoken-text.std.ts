import { PRIVATE_STAND_IN, type Utterance } from '../../common/speech.std.ts';

/**
 * The words an utterance comes to. On a speaker each run of private parts becomes one stand-in
 * phrase: what the screen shows of a shopper is for their ears only.
 */
export function spokenText({ locale, parts }: Utterance, privateAudio: boolean): string {
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
  // Control characters could steer espeak-ng's SSML-free input; speech needs none of them.
  const cleaned = words.map((word) => word.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()).filter(Boolean);
  // Parts are sentences of their own, with a pause between them, unless one already ends in punctuation.
  return cleaned.reduce((said, word) => (said === '' ? word : /[.,:;!?…]$/.test(said) ? `${said} ${word}` : `${said}. ${word}`), '');
}
