/** A message with its `{name}` placeholders filled from `params`; an unknown one stays as written. */
export function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}
