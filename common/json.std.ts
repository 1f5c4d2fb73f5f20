/** The value `text` holds as JSON, or undefined when it is not JSON: for input that is checked by a schema next. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
