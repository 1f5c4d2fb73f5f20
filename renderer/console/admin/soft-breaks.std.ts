/**
 * Text cut after `@ . _ -`: identifiers and e-mail addresses in narrow table columns wrap there
 * (`available_` / `until`, `sanne.devries@` / `example.nl`) instead of in the middle of a word.
 */
export function softBreaks(text: string): string[] {
  return text.split(/(?<=[@._-])/);
}
